#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { compile } from './template.mjs';

const [tpl, json] = process.argv.slice(2);
const render = compile(readFileSync(tpl, 'utf8'));
process.stdout.write(render(JSON.parse(readFileSync(json, 'utf8'))));
