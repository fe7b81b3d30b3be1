#!/usr/bin/env node
// Runs a command against the repository's OpenAI-protocol test double (tests/js/llm-protocol-double.mjs)
// on 127.0.0.1: starts it, replaces {url} in the command's arguments by its base URL
// (http://127.0.0.1:PORT/v1), runs the command, prints how many requests the double answered, stops.
// The double is NOT a model: every reply is the fixed --reply text, so what a command measures with it
// is the plumbing (calls made, cost counted, text indexed), never a model's quality.
//
//   node scripts/llm-test-double.mjs [--reply TEXT] -- node web/cli/ragwasm.mjs eval ... --context-url {url}
import { spawn } from 'node:child_process';
import { openaiJson, ProtocolTestDouble } from '../tests/js/llm-protocol-double.mjs';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
if (dash < 0 || dash === argv.length - 1) {
  process.stderr.write('usage: node scripts/llm-test-double.mjs [--reply TEXT] -- COMMAND ARGS... ({url} = the double\'s base URL)\n');
  process.exit(2);
}
const own = argv.slice(0, dash);
let reply = '[test double] fixed reply';
for (let i = 0; i < own.length; i++) {
  if (own[i] === '--reply' && i + 1 < own.length) reply = own[++i];
  else {
    process.stderr.write(`llm-test-double: unknown option '${own[i]}'\n`);
    process.exit(2);
  }
}
const double = await ProtocolTestDouble.start();
double.always(() => ({ json: openaiJson(reply) }));
const url = `${double.origin}/v1`;
const [cmd, ...args] = argv.slice(dash + 1).map((a) => a.replaceAll('{url}', url));
process.stderr.write(`llm-test-double: ${url} answers every request with ${JSON.stringify(reply)}\n`);
const child = spawn(cmd, args, { stdio: 'inherit' });
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
process.stderr.write(`llm-test-double: answered ${double.requests.length} requests\n`);
double.requests.length = 0;
await double.close();
process.exit(status);
