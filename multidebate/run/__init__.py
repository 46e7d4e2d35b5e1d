"""`multidebate run` and `doctor`: start the assistants' command-line tools headless and drive a debate.

A layer of its own, between the CLI and what a session does (turns): it briefs each agent as `next` briefs a
session, and writes its turn through `write`'s own code.  Nothing here is imported unless `run` or `doctor`
runs: `import multidebate` and every other command never load it.

- agents.py: the presets and the custom `cmd:` agent (argv, stdin, environment; reading the tool's output)
- supervise.py: one process, its group, its timeouts, its output bound; killing them all on Ctrl-C
- prompt.py: the prompt (SKILL.md's rules, `next`'s briefing) and the sections taken from a reply
- loop.py: the orchestrator; events.py: what it reports; display.py: how that is shown
- tools.py: programs on PATH and their versions; doctor.py: `doctor`
"""
