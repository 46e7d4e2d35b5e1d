"""A review's critic that finds nothing, or its defender with nothing to answer (argv[1]: critic | defender)."""
import re
import sys

from _fake import prompt

text = prompt()
if "ROLE: " + sys.argv[1] not in text:
    sys.exit(f"not briefed as the {sys.argv[1]}")
section = "Findings" if sys.argv[1] == "critic" else "Responses"
round_ = re.search(r"ROLE: \w+, round (\d+)", text).group(1)
print(f"## Reasoning\nI read the proposal closely in round {round_}.\n\n## {section}\nNone.\n")
