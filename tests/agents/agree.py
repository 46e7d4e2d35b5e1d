"""Turn 1: its own line (argv[1]); later: the first bold line served (slug order), and yes."""
import sys

from _fake import peer_lines, peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
lines = peer_lines(text)
line = lines[0][1] if turn > 1 and lines else sys.argv[1]
print(sections(turn, line, turn > 1, peers(text)))
