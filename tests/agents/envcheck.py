"""Holds its line (argv[1]) and says in its Reasoning whether it was handed a multidebate key."""
import os
import sys

from _fake import peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
print(sections(turn, sys.argv[1], False, peers(text), reasoning=f"MULTIDEBATE_KEY={os.environ.get('MULTIDEBATE_KEY', 'unset')}"))
