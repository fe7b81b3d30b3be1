// ragwasm chunk --strategy NAME [options] FILE: one JSON line per chunk (UTF-16 offsets).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { chunk, decodeUtf8 } from '../../src/index.js';

function int(values, key) {
  const v = values[key];
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) return Number.NaN;  // rejected by chunk() with a message naming the option
  return Number(v);
}

export default {
  name: 'chunk',
  summary: 'chunk a UTF-8 text or markdown file (JSON lines: id, start, end, text, headerPath, ...)',
  usage: 'chunk --strategy fixed|recursive|markdown|markdown-header|sentence [options] FILE',
  description: 'Offsets are UTF-16 code units of the decoded file, as JavaScript strings count them. '
    + 'Invalid UTF-8 is replaced by U+FFFD unless --strict-utf8 is given. The semantic strategy needs an '
    + 'embedder and is available from the JS API (chunkAsync) only.',
  options: {
    strategy: { type: 'string', default: 'recursive', help: 'fixed, recursive, markdown, markdown-header or sentence' },
    'chunk-size': { type: 'string', help: 'maximum chunk length in --unit (strategy default)' },
    'chunk-overlap': { type: 'string', help: 'overlap in --unit (fixed, recursive, markdown, markdown-header)' },
    unit: { type: 'string', help: 'utf16, codepoints, bytes or tokens (default utf16)' },
    strict: { type: 'boolean', help: 'recursive/markdown: guarantee every chunk <= chunk-size' },
    'split-levels': { type: 'string', help: 'markdown-header: h1..hN start sections (default 6)' },
    'strip-headers': { type: 'boolean', help: 'markdown-header: leave header lines out of chunk texts' },
    'overlap-sentences': { type: 'string', help: 'sentence: sentences repeated in the next chunk (default 0)' },
    'newline-breaks': { type: 'boolean', help: 'sentence: every line break ends a sentence' },
    id: { type: 'string', help: 'document id (default: the file name)' },
    'strict-utf8': { type: 'boolean', help: 'fail on invalid UTF-8 instead of repairing it' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1) {
      io.stderr.write('ragwasm chunk: expected exactly one FILE (see --help)\n');
      return 2;
    }
    const text = decodeUtf8(readFileSync(positionals[0]), { fatal: !!values['strict-utf8'] });
    const options = { strategy: values.strategy };
    const map = [['chunk-size', 'chunkSize'], ['chunk-overlap', 'chunkOverlap'], ['split-levels', 'splitLevels'],
      ['overlap-sentences', 'overlapSentences']];
    for (const [flag, key] of map) if (values[flag] !== undefined) options[key] = int(values, flag);
    if (values.unit !== undefined) options.unit = values.unit;
    if (values.strict) options.strict = true;
    if (values['strip-headers']) options.stripHeaders = true;
    if (values['newline-breaks']) options.newlineBreaks = true;
    const chunks = chunk({ id: values.id ?? basename(positionals[0]), text }, options);
    const out = chunks.map((c) => JSON.stringify({
      id: c.id, start: c.start, end: c.end, tokenEstimate: c.tokenEstimate, headerPath: c.headerPath,
      prevId: c.prevId, nextId: c.nextId, text: c.text,
    })).join('\n');
    io.stdout.write(out + (out ? '\n' : ''));
    return 0;
  },
};
