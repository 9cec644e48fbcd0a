#!/usr/bin/env python3
import argparse
import secrets
import string
import time

import pyperclip

WORDS = """acid acorn acre actor adapt agile album alpine amber anchor ankle apron arcade arena armor
aroma atlas attic audio autumn avocado bakery bamboo banjo barley basin beacon bison blanket
bonfire breeze bronze bucket cactus canyon carbon cargo cedar cello cherry cinema citrus cobalt
comet copper coral cosmic cotton crater cricket crystal dagger dawn delta denim desert dolphin""".split()

ap = argparse.ArgumentParser()
ap.add_argument("--words", type=int, default=5)
ap.add_argument("--chars", type=int)
ap.add_argument("--show", action="store_true")
a = ap.parse_args()

if a.chars:
    alphabet = string.ascii_letters + string.digits + "-_.!@#"
    value = "".join(secrets.choice(alphabet) for _ in range(a.chars))
else:
    value = "-".join(secrets.choice(WORDS) for _ in range(a.words))

pyperclip.copy(value)
print(value if a.show else "copied to clipboard (cleared in 30 s)")
time.sleep(30)
if pyperclip.paste() == value:
    pyperclip.copy("")
