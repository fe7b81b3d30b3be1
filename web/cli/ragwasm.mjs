#!/usr/bin/env node
// ragwasm command-line interface. Each subcommand is web/cli/commands/<name>.mjs exporting
// { name, summary, usage, options, run(values, positionals, io) }; this file only dispatches.
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { init, RagwasmError } from '../src/index.js';
import { safeStream } from './lib/terminal.mjs';

const commandsDir = new URL('./commands/', import.meta.url);

async function loadCommands() {
  const names = readdirSync(commandsDir).filter((f) => f.endsWith('.mjs')).sort();
  const out = new Map();
  for (const f of names) {
    const mod = (await import(new URL(f, commandsDir).href)).default;
    out.set(mod.name, mod);
  }
  return out;
}

function helpText(cmd) {
  const lines = [`usage: ragwasm ${cmd.usage}`, '', cmd.summary];
  if (cmd.description) lines.push('', cmd.description);
  const opts = Object.entries(cmd.options ?? {});
  if (opts.length) {
    lines.push('', 'options:');
    for (const [k, o] of opts) {
      const flag = `--${k}${o.type === 'string' ? ' VALUE' : ''}`;
      lines.push(`  ${flag.padEnd(28)} ${o.help ?? ''}${o.default !== undefined ? ` (default: ${o.default})` : ''}`);
    }
  }
  lines.push(`  ${'--help'.padEnd(28)} show this help`);
  return lines.join('\n');
}

export async function main(argv, given = { stdout: process.stdout, stderr: process.stderr }) {
  // Document text, file names and LLM replies are printed: control characters are shown, not executed (#33 C-3).
  const io = { ...given, stdout: safeStream(given.stdout), stderr: safeStream(given.stderr) };
  const commands = await loadCommands();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    // the installed package's own version (package.json two folders up, shipped in the tarball)
    io.stdout.write(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version + '\n');
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const width = Math.max(...[...commands.keys()].map((k) => k.length));
    io.stdout.write(['usage: ragwasm COMMAND [options]', '', 'commands:',
      ...[...commands.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
      '', 'ragwasm COMMAND --help shows the options of one command; ragwasm --version (-v) prints the version.', ''].join('\n') + '\n');
    return name ? 0 : 2;
  }
  const cmd = commands.get(name);
  if (!cmd) {
    io.stderr.write(`ragwasm: unknown command '${name}' (commands: ${[...commands.keys()].join(', ')})\n`);
    return 2;
  }
  let parsed;
  try {
    const options = { help: { type: 'boolean' } };
    for (const [k, o] of Object.entries(cmd.options ?? {})) {
      options[k] = { type: o.type };
      if (o.multiple) options[k].multiple = true;
      if (o.short) options[k].short = o.short;
    }
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (e) {
    io.stderr.write(`ragwasm ${name}: ${e.message}\n\n${helpText(cmd)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(helpText(cmd) + '\n');
    return 0;
  }
  const values = { ...parsed.values };
  for (const [k, o] of Object.entries(cmd.options ?? {})) if (values[k] === undefined && o.default !== undefined) values[k] = o.default;
  try {
    await init();
    return (await cmd.run(values, parsed.positionals, io)) ?? 0;
  } catch (e) {
    if (e instanceof RagwasmError) {
      io.stderr.write(`${e.message} [${e.code}]\n`);
      return 1;
    }
    if (e?.name === 'DatasetError') {
      io.stderr.write(`ragwasm ${name}: ${e.message}\n`);
      return 2;
    }
    if (e && e.code === 'ENOENT') {
      io.stderr.write(`ragwasm ${name}: file not found: ${e.path}\n`);
      return 1;
    }
    if (e && typeof e.code === 'string' && typeof e.syscall === 'string') {  // EISDIR, EACCES, ...: a message, not a stack trace
      io.stderr.write(`ragwasm ${name}: cannot ${e.syscall} ${e.path ?? ''}: ${e.code}\n`);
      return 1;
    }
    throw e;
  }
}

if (import.meta.url === new URL(process.argv[1], 'file://').href || process.argv[1]?.endsWith('/ragwasm') || process.argv[1]?.endsWith('ragwasm.mjs')) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
