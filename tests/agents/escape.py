"""Never reads its prompt: starts a child that leaves the process group (setsid), holds stdin open and is deaf
to SIGTERM, says so in files (argv[1]: `escaped.<pid>` holds the child's pid), then never ends."""
import os
import subprocess
import sys
import time

where = sys.argv[1]
child = subprocess.Popen([sys.executable, "-c", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                          "while True: time.sleep(1)"], start_new_session=True)  # stdin inherited: held open
with open(os.path.join(where, f"escaped-{os.getpid()}.tmp"), "w") as handle:
    handle.write(str(child.pid))
os.rename(os.path.join(where, f"escaped-{os.getpid()}.tmp"), os.path.join(where, f"escaped.{os.getpid()}"))
while True:
    time.sleep(0.1)
