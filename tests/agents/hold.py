"""Holds its line (argv[1]) every turn, and never says yes."""
import sys

from _fake import peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
print(sections(turn, sys.argv[1], False, peers(text)))
