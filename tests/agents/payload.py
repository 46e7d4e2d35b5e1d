"""What a hostile TASK.md edit would start: leaves a mark (argv[1]) that it ran, then answers as agree does."""
import sys

from _fake import peers, prompt, sections, whoami

with open(sys.argv[1], "a") as mark:
    mark.write("ran\n")
text = prompt()
slug, turn = whoami(text)
print(sections(turn, sys.argv[2], turn > 1, peers(text)))
