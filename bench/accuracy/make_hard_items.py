"""The hard set: generated items where a session working without tools often slips (long multiplication,
long counts, far dates, many swaps, prime counts, modular powers). Answers are computed here, never typed.

Run: python bench/accuracy/make_hard_items.py [--set hard|extra]  (writes bench/accuracy/<set>-items.jsonl)
"""
from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import random
import sys
from pathlib import Path

SEED = 2026_11_27
PER_CATEGORY = 10
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WORDS = ("strawberry raspberry blueberry mississippi bookkeeper committee assessment embarrassment parallel "
         "occurrence necessary millennium accommodate possession referee tennessee banana cinnamon pepperoni "
         "successful address balloon coffee giraffe letter interrupt questionnaire broccoli entrepreneur "
         "conscientious rhythm silhouette").split()
PEOPLE = ["Alice", "Bob", "Claire", "Dave", "Eve", "Fred", "Gertrude"]
BALLS = ["red", "orange", "yellow", "green", "blue", "purple", "white"]


def multiply(rng: random.Random) -> dict[str, str]:
    a, b = rng.randint(1000, 9999), rng.randint(1000, 9999)
    return {"question": f"What is {a} * {b}?", "answer": str(a * b)}


def long_arithmetic(rng: random.Random) -> dict[str, str]:
    a, b, c, d = (rng.randint(100, 999) for _ in range(4))
    return {"question": f"What is {a} * {b} - {c} * {d}?", "answer": str(a * b - c * d)}


def letter_count(rng: random.Random, words: int = 8, least: int = 6) -> dict[str, str]:
    while True:
        phrase = " ".join(rng.sample(WORDS, words))
        letter = rng.choice(sorted(set(phrase.replace(" ", ""))))
        if phrase.count(letter) >= least:
            return {"question": f"How many times does the letter '{letter}' occur in \"{phrase}\"?",
                    "answer": str(phrase.count(letter))}


def far_weekday(rng: random.Random) -> dict[str, str]:
    day = dt.date(1600, 1, 1) + dt.timedelta(days=rng.randint(0, 800 * 365))
    return {"question": f"On what day of the week does {day.isoformat()} fall in the proleptic Gregorian calendar?",
            "answer": WEEKDAYS[day.weekday()]}


def large_offset(rng: random.Random) -> dict[str, str]:
    start = dt.date(1890, 1, 1) + dt.timedelta(days=rng.randint(0, 220 * 365))
    days = rng.randint(1000, 6000)
    return {"question": f"What is the date {days} days after {start.isoformat()}? Answer as YYYY-MM-DD.",
            "answer": (start + dt.timedelta(days=days)).isoformat()}


def swaps(rng: random.Random, count: int = 14) -> dict[str, str]:
    held = dict(zip(PEOPLE, BALLS))
    done = []
    for _ in range(count):
        a, b = rng.sample(PEOPLE, 2)
        held[a], held[b] = held[b], held[a]
        done.append(f"{a} and {b} swap balls")
    who = rng.choice(PEOPLE)
    start = ", ".join(f"{p} has a {c} ball" for p, c in zip(PEOPLE, BALLS))
    return {"question": (f"Seven players start a game holding one ball each: {start}. Then, in order: "
                         + "; ".join(done) + f". Which colour of ball does {who} hold at the end?"),
            "answer": held[who]}


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))


def prime_count(rng: random.Random, lowest: int = 200, step: int = 10, width: int = 100) -> dict[str, str]:
    low = rng.randint(lowest, 999) * step
    high = low + width
    return {"question": f"How many prime numbers are there between {low} and {high}?",
            "answer": str(sum(_is_prime(n) for n in range(low, high + 1)))}


def modular_power(rng: random.Random) -> dict[str, str]:
    base, exponent = rng.randint(3, 29), rng.randint(100, 999)
    return {"question": f"What are the last three digits of {base}^{exponent} (that is, {base}^{exponent} mod 1000)?"
                        " Answer as a number from 0 to 999.", "answer": str(pow(base, exponent, 1000))}


def multiply_5x5(rng: random.Random) -> dict[str, str]:
    a, b = rng.randint(10000, 99999), rng.randint(10000, 99999)
    return {"question": f"What is {a} * {b}?", "answer": str(a * b)}


SETS = {
    "hard": (SEED, "h", (("multiply-4x4", multiply), ("long-arithmetic", long_arithmetic),
                         ("long-letter-count", letter_count), ("far-weekday", far_weekday),
                         ("large-date-offset", large_offset), ("many-swaps", swaps),
                         ("prime-count", prime_count), ("modular-power", modular_power))),
    # h01 and h02: sessions that worked step by step were right on every hard item at turn 1
    "extra": (SEED + 1, "x", (("multiply-5x5", multiply_5x5),
                              ("longer-letter-count", functools.partial(letter_count, words=14, least=10)),
                              ("wider-prime-count", functools.partial(prime_count, lowest=300, step=100, width=200)),
                              ("more-swaps", functools.partial(swaps, count=25)))),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="hard")
    parser.add_argument("-o", "--out", type=Path)
    args = parser.parse_args()
    seed, prefix, makers = SETS[args.set]
    out_path = args.out or Path(__file__).with_name(f"{args.set}-items.jsonl")
    rng = random.Random(seed)
    items: list[dict[str, str]] = []
    for category, make in makers:
        made: list[dict[str, str]] = []
        while len(made) < PER_CATEGORY:
            item = make(rng)
            if all(item["question"] != m["question"] for m in made):  # a repeat would weigh one item twice
                made.append(item)
        source = f"generated by bench/accuracy/make_hard_items.py --set {args.set}, seed {seed}"
        items.extend({"category": category, "source": source, **m} for m in made)
    with out_path.open("w", encoding="utf-8") as out:
        for number, item in enumerate(items, 1):
            out.write(json.dumps({"id": f"{prefix}{number:03d}", **item}, ensure_ascii=False) + "\n")
    print(f"{len(items)} items -> {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
