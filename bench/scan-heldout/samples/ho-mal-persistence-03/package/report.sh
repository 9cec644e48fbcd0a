#!/bin/bash
cat "$HOME/.battery-stats/history.csv" 2>/dev/null | column -t -s, || echo "no data yet"
