"""The comparison layer: what decides, never shared topic words.

The pairs below are constructed, one or more per class the verdicts issue
names; the measured numbers on real debates are in bench/verdicts.py
(tests/test_corpus.py keeps them from regressing).
"""

from __future__ import annotations

import pytest

from multidebate.analysis.comparison import Context, compare
from multidebate.analysis.words import quantities
from multidebate.protocol.answer import AnswerSig, items_of, normalise_line
from multidebate.protocol.terms import key_terms, recommendation, slug_words

DIFFERENT = [  # (left, right, a word the evidence must name)
    ("**Use NATS for internal events.**", "**Use Redis Streams for internal events.**", "nats"),
    ("**Run 3 replicas.**", "**Run 5 replicas.**", "3 replicas vs 5 replicas"),
    ("**Set a 1 MB upload limit.**", "**Set a 10 MB upload limit.**", "1 mb vs 10 mb"),
    ("**Option C.**", "**Option D.**", "option C vs D"),
    # accuracy dogfood: a line of numbers and letters was read as its letter items alone
    ("**Q1: 112, Q2: 50, Q3: A, Q4: D**", "**Q1: 113, Q2: 50, Q3: A, Q4: D**", "Q1 112 vs 113"),
    ("**Q1: Tuesday, Q2: C, Q3: 1901-03-01**", "**Q1: Tuesday, Q2: C, Q3: 1901-02-28**", "Q3"),
    ("**C) 17 workers.**", "**B) 9 workers.**", "option B vs C"),
    ("**Merge the feature branch.**", "**Rebase the feature branch.**", "'merge' vs 'rebase'"),
    ("**Keep Celery.**", "**Replace Celery with Dramatiq.**", "keep, the other change"),
    ("**Use a monorepo.**", "**Do not use a monorepo.**", "monorepo"),
    ("**Use TOML, not YAML.**", "**Use YAML, not TOML.**", "rejects"),
    ("**Indent with tabs.**", "**Indent with 4 spaces.**", "'4 space' vs 'tab'"),
    ("**Set retention to 30 days.**", "**Set retention to 365 days.**", "30 days vs 365 days"),
    ("**Use connect 3 s, read 12 s, 2 retries.**", "**Use connect 1 s, read 8 s, 1 retry.**", "connect"),
    ("**Q1: A, Q2: B, Q3: C, Q4: D**", "**Q1: A, Q2: B, Q3: C, Q4: A**", "Q4 A vs D"),
    ("Answers:\n\nQ1: A\nQ2: B\nQ3: C", "Answers:\n\nQ1: A\nQ2: C\nQ3: C", "Q2 B vs C"),
    ("**Use Postgres.**", "**Use SQLite.**", "postgres vs sqlite"),
    # numbered lists are item-by-item answers: multi-line, inline, and under a bold label
    ("1. A\n2. B\n3. C", "1. A\n2. C\n3. C", "B vs C"),
    ("**1. A 2. B 3. C**", "**1. A 2. C 3. C**", "B vs C"),
    ("**1B 2C 3A**", "**1B 2C 3D**", "3 A vs D"),
    ("**Answers:**\n\n1. Use TOML\n2. Keep tabs\n3. 30 s", "**Answers:**\n\n1. Use TOML\n2. Switch to spaces\n3. 30 s",
     "keep tabs"),
    ("**Answers:**\n1. Use TOML\n2. Keep tabs\n3. 30 s", "**Answers:**\n1. Use TOML\n2. Keep tabs\n3. 60 s", "3 30 vs 60"),
    ("**1: 403 Forbidden, 2: 201 Created, 3: 409 Conflict**", "**1: 401 Unauthorized, 2: 201 Created, 3: 412 "
     "Precondition Failed**", "1 401 vs 403"),
    # settings inline (d25: a false same through "the same opening clause ('pool_size')")
    ("**pool_size: 10, max_overflow: 10**", "**pool_size: 5, max_overflow: 2**", "pool_size 10 vs 5"),
    # a language named after a word that is glue elsewhere ("go with X")
    ("**Write the service in Go.**", "**Write the service in Rust.**", "go"),
    ("**Keep the monolith.**", "**Split the monolith into services.**", "keep, the other change"),
    ("**Set the timeout to 30 s.**", "**Set the timeout to 45000 ms.**", "30 s vs 45000 ms"),
    # glue elsewhere, decisive here (a trap set written against the comparison)
    ("**Run the migration before the release.**", "**Run the migration after the release.**", "'after' vs 'before'"),
    ("**Turn caching on.**", "**Turn caching off.**", "'off' vs 'on'"),
    ("**Turn on caching.**", "**Turn off caching.**", "'off' vs 'on'"),
    ("**Store it in Redis and S3.**", "**Store it in Redis or S3.**", "'and' vs 'or'"),
    ("**Keep 30 days of logs.**", "**Keep 3 months of logs.**", "30 days vs 3 months"),
    # "over" after a verb of preferring, or in "X over Y", sets aside what follows
    ("**Prefer Postgres over MySQL.**", "**Use MySQL.**", "mysql"),
    ("**Composition over inheritance.**", "**Inheritance over composition.**", "rejects"),
    ("**Cache 1,000 entries.**", "**Cache 10,000 entries.**", "1,000 entries vs 10,000 entries"),
    ("**Use UUIDs (version 4).**", "**Use UUIDv7.**", "'v4' vs 'v7'"),
    ("**Split the monolith into microservices.**", "**Do not split the monolith.**", "rejects"),
    # a rate is a count per unit of time, whatever the unit
    ("**Limit each API key to 10 requests per second.**", "**Limit each API key to 100 requests per minute.**",
     "10 requests per second vs 100 requests per minute"),
    ("**Pool: 10 / 10**", "**Pool: 5 / 2**", "10 vs 5 (pool)"),  # one labelled slot, other values
    # minimal pairs (#23): one token swapped, a yes against a no, one labelled slot with two values
    ("**Answer: 42.**", "**Answer: 41.**", "'41' vs '42'"),
    ("**Pick A.**", "**Pick B.**", "'a' vs 'b'"),
    ("**Pin Node 20.**", "**Pin Node 22.**", "20 vs 22"),
    ("**Yes, move to uv now.**", "**No, keep pip-tools for now.**", "yes, the other no"),
    ("**Adopt uv for the monorepo.**", "**Stay on pip-tools.**", "the other adopts"),
    ("**Set the minimum supported Python version of the next major release to 3.9.**",
     "**Minimum supported Python for the next major release: 3.10.**", "3.10 vs 3.9"),
    ("**pods: 12, workers per pod: 10, pool per pod: 10**", "**pods: 4, workers per pod: 10, pool per pod: 10**",
     "12 vs 4"),
    ("**Ship weekly releases from main.**", "**Ship releases from main every two weeks.**", "biweekly vs weekly"),
    ("**Target Python 3.1.**", "**Target Python 3.10.**", "3.1 vs 3.10"),
    ("**Tabs.**", "**4 spaces.**", "short answers that differ"),
    ("**Choose option A.**", "**Choose B.**", "'a' vs 'b'"),
    # a quoted or code value keeps its case (d68: the sort order of ['a', 'A', 'b'] was read as unchanged)
    ("**Q1: False, Q2: ['a', 'A', 'b'], Q3: '0'**", "**Q1: False, Q2: ['A', 'a', 'b'], Q3: '0'**", "differ in case"),
    ("**Set `MaxConnections` to 10.**", "**Set `maxconnections` to 10.**", "differ in case"),
    ("**Use tabs.**", "**Use spaces.**", "'space' vs 'tab'"),
    ("**Use the monorepo.**", "**Use separate repositories.**", "short answers that differ"),
    ("**Ship weekly.**", "**Ship every other week.**", "biweekly vs weekly"),
    ("**Set the pool size to 10.**", "**Pool size: 20.**", "(size)"),
]
# a line that begins with the other and then turns: an option, a negation, a condition or a contrast (#23, #24)
NOT_SAME = [
    ("**Use SQLite**", "**Use SQLite — just kidding, Postgres**"),
    ("**Use SQLite**", "**Use SQLite — NOT Postgres, never SQLite**"),
    ("**Approve the merge**", "**Approve the merge once the reviewers reject it**"),
    ("**Use SQLite.**", "**Use SQLite unless you need replication.**"),
    ("**Use SQLite.**", "**Use SQLite, but only for tests.**"),
    ("**Merge the PR.**", "**Merge the PR if CI fails.**"),
    ("**Use Redis.**", "**Use Redis — actually no, Memcached.**"),
    ("**pgBackRest: weekly full, daily differential.**", "**pgBackRest: daily full, weekly differential.**"),
]
SAME = [
    ("**Use TOML.**\n\nComments.", "**use toml**\n\nA stdlib parser."),
    ("**Use SQLite.**", "**Use SQLite in WAL mode with automated backups.**"),
    ("**Use Postgres.**", "**Use PostgreSQL.**"),
    ("**Q1: A, Q2: B**\n\nReasons.", "**Q1: A, Q2: B**\n\nOther reasons."),
    ("**B: one update waits and updates 0 rows.**", "**B: the second update waits, then updates 0 rows.**"),
    ("**Enforce tabs for indentation, via ruff-format.**", "**Enforce tabs for indentation, using Ruff's formatter.**"),
    # one duration in other units or words
    ("**Set the timeout to 30 s.**", "**Set the timeout to 30 seconds.**"),
    ("**Set the timeout to 30 s.**", "**Set the timeout to 30000 ms.**"),
    ("**Cache for 60 s.**", "**Cache for one minute.**"),
    ("**Use JWTs with a 15-minute expiry.**", "**Use JWTs with a 15 minutes expiry.**"),
    ("**Go with Postgres.**", "**Use PostgreSQL.**"),
    ("**Answers:**\n1. Use TOML\n2. Keep tabs\n3. 30 s", "**Answers:**\n1. TOML\n2. Keep tabs\n3. 30 seconds"),
    # a count or an amount in other words or units
    ("**Retry 3 times.**", "**Retry three times.**"),
    ("**Run ten workers.**", "**Run 10 workers.**"),
    ("**Give it 1 GB of memory.**", "**Give it 1024 MB of memory.**"),
    ("**Keep 30 days of logs.**", "**Keep a month of logs.**"),
    ("**Archive logs for 12 months.**", "**Archive logs for 1 year.**"),
    ("**Archive logs for 365 days.**", "**Archive logs for a year.**"),
    ("**Deploy on k8s.**", "**Deploy on Kubernetes.**"),
    ("**Use API v2.**", "**Use API version 2.**"),
    # a version glued to its name, a plural of a capitalised name, a thousands separator
    ("**Adopt UUIDv7 primary keys.**", "**Use UUIDs (version 7) as primary keys.**"),
    ("**Use an LRU cache of 1,000 entries.**", "**LRU cache, 1000 entries.**"),
]
NOT_DIFFERENT = [  # one value in other units: unsure or same, never different
    ("**Limit each API key to 10 requests per second.**", "**Limit each API key to 600 requests per minute.**"),
    ("**Allow 10 req/s per key.**", "**Allow 600 requests a minute per key.**"),
]
# one recommendation in other words, where a word-by-word reading could see a swap (#23): never different
NEVER_DIFFERENT = [
    ("**Q1 137, Q2 15, Q3 640**", "**Q1 137, Q2 15, Q3 0640**"),
    ("**pgBackRest: weekly full, daily differential, 14 days of retention.**",
     "**pgBackRest, keeping 14 days (weekly full + daily differential backups).**"),
    ("**Back up nightly.**", "**Back up every day.**"),
    ("**Rotate keys quarterly.**", "**Rotate keys every 90 days.**"),
    ("**Semantic versioning.**", "**SemVer.**"),
    ("**Use OpenTelemetry.**", "**Use OTel.**"),
    ("**Use Django REST framework.**", "**Use DRF.**"),
    ("**Store sessions in Redis.**", "**Keep sessions in Redis.**"),
    ("**Stay with the monolith.**", "**Use a modular monolith.**"),
    ("**Run it on Kubernetes.**", "**Run it in Kubernetes.**"),
    ("**Answer B.**", "**Option B.**"),
    ("**Keep tabs.**", "**Stay with tabs.**"),
    ("**Keep Postgres.**", "**Use PostgreSQL.**"),
    # a value on one side only, with nothing in its place on the other, is detail
    ("**Migrate the cron jobs to Airflow incrementally, one job family at a time, after a one-day inventory.**",
     "**Migrate the cron jobs to Airflow incrementally after a one-day inventory gate.**"),
    ("**Recommendation (unchanged): squash-merge every PR.**", "**Squash-merge every PR.**"),
    ("**Squash-merge every PR.**", "**Squash merge every pull request.**"),
    ("**Retry twice with exponential backoff.**", "**Retry 2 times, exponential backoff.**"),
]
UNSURE = [
    ("**Keep raising exceptions; add typed errors.**", "**Stay with exceptions, but typed and documented.**"),
    ("**Use Postgres.**", "**Use Postgres and Redis.**"),
    ("**Use SQLite; switch to PostgreSQL only if you outgrow one server.**",
     "**Use SQLite; choose PostgreSQL only if a managed one is already there.**"),
    # one opening clause, then different detail: never "the rest only adds detail"
    ("**Write to the primary, read from replicas.**", "**Write to the primary, read from the primary.**"),
    ("**Run 2 workers per core.**", "**Run 2 cores per worker.**"),  # one set of words, another meaning
    ("**Option A.**", "**Option A, then B later.**"),  # a second letter: not "both choose option A"
    # one rejects a split the other never proposes; "over" weighs one against the other ("prefer X over Y")
    ("**Keep the monolith and split it into modules.**",
     "**Stay with a modular monolith; do not split into microservices yet.**"),
    ("**Prefer composition over inheritance here.**", "**Use composition rather than inheritance.**"),
]


@pytest.mark.parametrize(("left", "right", "named"), DIFFERENT)
def test_what_decides_differs(left: str, right: str, named: str) -> None:
    for a, b in ((left, right), (right, left)):
        found = compare(a, b)
        assert found.relation == "different", found
    evidence = compare(left, right).evidence.lower()
    # the evidence names the two sides in one fixed order, whichever way the pair is asked
    swapped = " vs ".join(reversed(named.lower().split(" vs "))) if " vs " in named else named.lower()
    assert named.lower() in evidence or swapped in evidence, evidence


@pytest.mark.parametrize(("left", "right"), SAME)
def test_same_recommendation(left: str, right: str) -> None:
    assert compare(left, right).relation == "same", compare(left, right)
    assert compare(right, left).relation == "same"


@pytest.mark.parametrize(("left", "right"), NOT_DIFFERENT)
def test_one_value_in_other_units_is_not_different(left: str, right: str) -> None:
    assert compare(left, right).relation != "different", compare(left, right)
    assert {q.value for q in quantities(left)} == {q.value for q in quantities(right)}


@pytest.mark.parametrize(("left", "right"), NOT_SAME)
def test_a_line_that_turns_is_never_a_refinement(left: str, right: str) -> None:
    for a, b in ((left, right), (right, left)):
        assert compare(a, b).relation != "same", compare(a, b)


@pytest.mark.parametrize(("left", "right"), NEVER_DIFFERENT)
def test_one_recommendation_in_other_words_is_never_different(left: str, right: str) -> None:
    for a, b in ((left, right), (right, left)):
        assert compare(a, b).relation != "different", compare(a, b)


@pytest.mark.parametrize(("left", "right"), UNSURE)
def test_no_guess_when_nothing_decides(left: str, right: str) -> None:
    """A false same or a false different both cost the user: say unsure instead."""
    assert compare(left, right).relation == "unsure", compare(left, right)


def test_the_task_names_the_options() -> None:
    task = "Recommend exactly one of NATS JetStream, Redis Streams or Kafka, and say how you would run it."
    context = Context(task=task)
    found = compare("**Go with JetStream from NATS, file storage.**", "**Kafka, managed, seven days.**", context)
    assert found.relation == "different"
    assert "options the task lists" in found.evidence


def test_items_name_what_differs() -> None:
    found = compare("pool_size: 5\nmax_overflow: 5\ntimeout: 10 s", "pool_size: 10\nmax_overflow: 0\ntimeout: 10 s")
    assert found.relation == "different"
    assert found.items == ("pool_size", "max_overflow")
    assert "2 of 3 items differ" in found.evidence


def test_an_item_value_with_or_without_its_unit_is_one_value() -> None:
    assert compare("pool_size: 5\npool_timeout: 10 s", "pool_size: 5\npool_timeout: 10").relation == "same"
    assert compare("pool_size: 5\npool_timeout: 10 s", "pool_size: 5\npool_timeout: 30").relation == "different"


def test_an_inline_quiz_of_numbers_and_letters_keeps_every_item() -> None:
    """#28: the letter-only reading kept Q2 and Q3 and dropped Q1, so a differing Q1 was called the same."""
    assert items_of("**Q1: 12, Q2: C, Q3: D**") == (("Q1", "12"), ("Q2", "C"), ("Q3", "D"))
    found = compare("**Q1: 12, Q2: C, Q3: D**", "**Q1: 13, Q2: C, Q3: D**")
    assert found.relation == "different"
    assert found.items == ("Q1",)
    # keyed alike however written: inline with numbers, inline letters only, or one item a line
    assert compare("**Q1: 12, Q2: C**", "- Q1: 12\n- Q2: C").relation == "same"
    assert items_of("**Q1: A, Q2: B**") == (("Q1", "A"), ("Q2", "B"))


def test_a_number_with_thousands_separators_is_one_inline_item() -> None:
    assert items_of("**Q1: 1,234, Q2: C**") == (("Q1", "1,234"), ("Q2", "C"))
    assert compare("**Q1: 1,234, Q2: C**", "**Q1: 1,235, Q2: C**").relation == "different"


def test_items_in_code_blocks_are_configuration_not_answers() -> None:
    answer = "**Enforce tabs.**\n\n```toml\n[tool.ruff.format]\nindent-style = \"tab\"\nline-length = 100\n```\n"
    assert items_of(answer) == ()


def test_a_numbered_list_of_reasons_is_no_list_of_answers() -> None:
    """Only a list that opens the Answer (or follows a bold label) is the answer itself."""
    left = "**Use TOML.**\n\n1. It is readable.\n2. It is standard."
    right = "**Use TOML.**\n\n1. Comments work.\n2. Python ships tomllib."
    assert items_of(left) == ()
    assert compare(left, right).relation == "same"


def test_a_reworded_item_is_not_assumed_equal_or_different() -> None:
    found = compare("1. Use TOML\n2. Keep tabs", "1. Use TOML\n2. Stay with the current indentation")
    assert found.relation == "unsure"
    assert "2" in found.evidence


def test_a_number_only_one_line_has_is_detail() -> None:
    assert compare("**Use connect 1 s, read 8 s.**", "**Use connect 1 s, read 8 s (the gateway kills at 10 s).**"
                   ).relation == "same"


def test_slugs_are_no_evidence() -> None:
    context = Context(ignore=slug_words(["claude-a", "gpt-5-5"]))
    found = compare("**I agree with claude-a: use uv.**", "**I agree with gpt-5-5: use uv.**", context)
    assert found.relation != "different"


def test_normalise_line_keeps_the_case_of_quoted_and_code_values() -> None:
    assert normalise_line("Q2: ['a', 'A', 'b']") != normalise_line("Q2: ['A', 'a', 'b']")
    assert normalise_line("Use `FooBar`, not \"x\"") == "use `FooBar` not x".replace("`", "")
    assert normalise_line("Use Python's and Django's defaults") == normalise_line("use python's and django's defaults")


def test_normalise_line_folds_case_markdown_and_punctuation() -> None:
    assert normalise_line("**Use `uv`, today.**") == normalise_line("use uv today")


def test_recommendation_is_the_whole_bold_span_or_first_sentence() -> None:
    assert recommendation("**Use Kafka (e.g. MSK). Seven days.**\n\nMore.") == "Use Kafka (e.g. MSK). Seven days."
    assert recommendation("Use Kafka, e.g. MSK. Then more.") == "Use Kafka, e.g. MSK."
    assert recommendation("### Recommendation\n\n**Recommendation:** use Go.") == "use Go."


def test_negation_scope_ends_at_clause_and_but() -> None:
    assert key_terms("Avoid YAML, use TOML") == {"not:yaml": 1, "toml": 1}
    assert key_terms("not YAML but TOML") == {"not:yaml": 1, "toml": 1}


def test_over_sets_aside_only_after_preferring_or_as_x_over_y() -> None:
    assert key_terms("Prefer Postgres over MySQL") == {"postgre": 1, "not:mysql": 1}
    assert key_terms("Tabs over spaces") == {"tab": 1, "not:space": 1}
    assert key_terms("Talk over gRPC") == {"talk": 1, "grpc": 1}  # a transport is chosen, not set aside
    assert key_terms("Run the jobs over HTTP") == {"run": 1, "job": 1, "http": 1}


def test_compare_is_symmetric_in_relation() -> None:
    for left, right, _named in DIFFERENT:
        assert compare(left, right).relation == compare(right, left).relation


def test_an_identifier_is_one_word_not_a_negation() -> None:
    # "reject_on_worker_lost" once read as "reject ... lost": a rejection of the other line's "lost-task" fix
    keep = "Keep Celery; fix the task loss in place (acks_late + reject_on_worker_lost)."
    other = "Keep Celery and fix the lost-task problems in place."
    assert key_terms("set reject_on_worker_lost") == {"set": 1, "reject_on_worker_lost": 1}
    assert compare(f"**{keep}**", f"**{other}**").relation != "different"


def test_the_memo_shares_a_comparison_by_content_but_never_identical_answers() -> None:
    """The memo is keyed by the lines, the items and whether the answers' texts are equal, not by object."""
    context = Context()
    twin = context.compare(AnswerSig("Use TOML.", (), "f1"), AnswerSig("Use TOML for the config.", (), "f1"))
    apart = context.compare(AnswerSig("Use TOML.", (), "f2"), AnswerSig("Use TOML for the config.", (), "f3"))
    again = context.compare(AnswerSig("Use TOML.", (), "f4"), AnswerSig("Use TOML for the config.", (), "f5"))
    assert twin.evidence == "identical answers"
    assert apart.basis == "refinement"
    assert again == apart


@pytest.mark.parametrize(("left", "right"), [
    # a frequency is no duration (d49)
    ("**Merge into main at least once a day; branches live under a day.**",
     "**Merge into main with short-lived branches, at most ~2 days.**"),
    # one option chosen at the start; names swapped in the detail after it (d48)
    ("**Use UUIDv7 primary keys (native uuid type), generated by the clients, with no separate public ID.**",
     "**Use UUIDv7 primary keys stored in the native uuid type, generated by the clients (no built-in v7 function).**"),
])
def test_detail_after_one_shared_choice_is_never_called_different(left: str, right: str) -> None:
    """Held-out false differents of d44-d55: each is at worst unsure, in both orders."""
    assert compare(left, right).relation != "different", compare(left, right)
    assert compare(right, left).relation != "different"


def test_an_identical_line_that_names_an_item_and_sets_numbers_decides_over_the_bodies() -> None:
    """d45: one session rewrote its backoff formula in the body under the same bold line."""
    line = "**Retry up to 3 times with exponential backoff and full jitter (base 200 ms, cap 2 s).**"
    before = f"{line}\n\n- Retries: 3 after the first attempt\n- Backoff: random(0, min(2 s, 200 ms x 2^attempt))\n"
    after = f"{line}\n\n- Retries: 3 after the first attempt\n- Backoff: random(0, min(2 s, 200 ms x 2^(n-1)))\n"
    found = compare(before, after)
    assert found.relation == "same", found
    assert "identical recommendation lines" in found.evidence, found
    # a line that names the item but sets no number leaves the bodies to decide
    bare = "**Retry with backoff.**"
    found = compare(f"{bare}\n\n- Retries: 3\n- Backoff: 1 s\n", f"{bare}\n\n- Retries: 3\n- Backoff: 5 s\n")
    assert found.relation == "different", found
    assert "backoff 1 vs 5" in found.evidence, found


def test_an_inline_item_line_is_read_whole_and_keyed_as_a_list_is() -> None:
    # a mixed line was read as its letter items alone (accuracy dogfood), and inline keys were "q1" while a
    # listed answer's were "Q1", so the two forms of one answer shared no key
    assert items_of("**Q1: 112, Q2: 50, Q9: A, Q11: D**") == (("Q1", "112"), ("Q2", "50"), ("Q9", "A"), ("Q11", "D"))
    assert items_of("**Q1: 12, Q2: Monday**") == items_of("**Answers**\n\nQ1: 12\nQ2: Monday\n")
    assert items_of("**Q1: A, Q2: C, Q3 B**") == (("Q1", "A"), ("Q2", "C"), ("Q3", "B"))
