#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

const userConfig =
  platform() === 'darwin'
    ? join(homedir(), 'Library', 'Application Support', 'ruff', 'ruff.toml')
    : join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'ruff', 'ruff.toml');

// a tiny reader for the few keys we need: key = value and key = [ ... ]
function readKeys(text, section) {
  const out = {};
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const header = line.match(/^\[(.+)\]$/);
    if (header) { current = header[1]; continue; }
    if (current !== section) continue;
    const kv = line.match(/^([\w-]+)\s*=\s*(.+)$/);
    if (kv) out[kv[1]] = kv[2];
  }
  return out;
}

const layers = [];
if (existsSync(userConfig)) layers.push(['user', readKeys(readFileSync(userConfig, 'utf8'), '')]);
if (existsSync('pyproject.toml')) layers.push(['pyproject.toml', readKeys(readFileSync('pyproject.toml', 'utf8'), 'tool.ruff')]);
if (existsSync('ruff.toml')) layers.push(['ruff.toml', readKeys(readFileSync('ruff.toml', 'utf8'), '')]);

const effective = {};
for (const [origin, keys] of layers) for (const [k, v] of Object.entries(keys)) effective[k] = { v, origin };
for (const [k, { v, origin }] of Object.entries(effective)) console.log(`${k.padEnd(16)} ${v}   (${origin})`);
if (layers.length === 0) console.log('no ruff configuration found; defaults apply');
