"""Starts a grandchild (deaf to SIGTERM) in its process group, says so in files, then never ends.

argv[1]: a folder for `started` (this pid) and `grandchild` (its pid); argv[2] `quiet` prints nothing (for the
idle timeout), `chatty` prints a line every 0.1 s (for the turn timeout).
"""
import os
import subprocess
import sys
import time

where, mode = sys.argv[1], sys.argv[2]
sys.stdin.read()
# the grandchild ignores SIGTERM: only the SIGKILL that follows stops it
child = subprocess.Popen([sys.executable, "-c", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                          "while True: time.sleep(1)"])
with open(os.path.join(where, f"grandchild-{os.getpid()}"), "w") as handle:
    handle.write(str(child.pid))
os.rename(os.path.join(where, f"grandchild-{os.getpid()}"), os.path.join(where, f"grandchild.{os.getpid()}"))
# a temporary name of its own: two fakes in one test write `started` at once
with open(os.path.join(where, f"started.{os.getpid()}.tmp"), "w") as handle:
    handle.write(str(os.getpid()))
os.replace(os.path.join(where, f"started.{os.getpid()}.tmp"), os.path.join(where, "started"))
while True:
    if mode == "chatty":
        print("still thinking", flush=True)
    time.sleep(0.1)
