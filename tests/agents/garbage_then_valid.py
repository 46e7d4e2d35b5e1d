"""First try: prose with no sections; once told of the refusal, a valid turn (argv[1]: its line)."""
import sys

from _fake import peers, prompt, sections, whoami

text = prompt()
slug, turn = whoami(text)
if "YOUR LAST REPLY WAS REFUSED" in text:
    print(sections(turn, sys.argv[1], False, peers(text)))
else:
    print("Sure! I think the answer is TOML, it is simple and widely used.")
