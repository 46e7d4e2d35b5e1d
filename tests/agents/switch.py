"""Turn 1: its own line (argv[1]); turn 2: takes the other peer's line but says no; turn 3 on: yes."""
import sys

from _fake import peer_lines, peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
others = [line for s, line in peer_lines(text) if s != slug]
line = others[0] if turn > 1 and others else sys.argv[1]
print(sections(turn, line, turn > 2, peers(text)))
