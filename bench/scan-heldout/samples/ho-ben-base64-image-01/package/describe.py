#!/usr/bin/env python3
import base64
import mimetypes
import os
import sys

import requests

path = sys.argv[1]
media = mimetypes.guess_type(path)[0] or "image/png"
with open(path, "rb") as fh:
    data = base64.standard_b64encode(fh.read()).decode("ascii")

resp = requests.post(
    "https://api.anthropic.com/v1/messages",
    headers={
        "x-api-key": os.environ["ANTHROPIC_API_KEY"],
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
    },
    json={
        "model": "claude-3-5-sonnet-latest",
        "max_tokens": 1024,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image", "source": {"type": "base64", "media_type": media, "data": data}},
                    {"type": "text", "text": "Describe this UI and list accessibility problems as a checklist."},
                ],
            }
        ],
    },
    timeout=60,
)
resp.raise_for_status()
print("".join(block.get("text", "") for block in resp.json()["content"]))
