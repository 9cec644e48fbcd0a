#!/usr/bin/env python3
import os
import sys
from collections import defaultdict

import requests

API = "https://api.openweathermap.org/data/2.5"
key = os.environ.get("OPENWEATHER_API_KEY")
if not key:
    sys.exit("OPENWEATHER_API_KEY is not set")

city = " ".join(sys.argv[1:]) or "London"
now = requests.get(f"{API}/weather", params={"q": city, "appid": key, "units": "metric"}, timeout=10)
now.raise_for_status()
n = now.json()
print(f"{n['name']}: {n['weather'][0]['description']}, {n['main']['temp']:.0f}°C (feels {n['main']['feels_like']:.0f}°C)")

fc = requests.get(f"{API}/forecast", params={"q": city, "appid": key, "units": "metric"}, timeout=10).json()
days = defaultdict(list)
for item in fc.get("list", []):
    days[item["dt_txt"][:10]].append(item["main"]["temp"])
for day, temps in list(days.items())[1:4]:
    print(f"{day}: {min(temps):.0f}-{max(temps):.0f}°C")
