"""Holds its line (argv[1]) with the same words every turn from turn 2 on: a repeated turn, word for word."""
import sys

from _fake import peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
print(sections(turn, sys.argv[1], False, peers(text), reasoning="I hold my position, for the same reasons."))
