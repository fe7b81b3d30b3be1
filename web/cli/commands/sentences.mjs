// ragwasm sentences FILE: one JSON line per sentence {start, end, text} (UTF-16 offsets).
import { readFileSync } from 'node:fs';
import { decodeUtf8, splitSentences } from '../../src/index.js';

export default {
  name: 'sentences',
  summary: 'split a UTF-8 text file into sentences (JSON lines: start, end, text)',
  usage: 'sentences [--abbreviations a,b] [--newline-breaks] FILE',
  description: 'Offsets are UTF-16 code units of the decoded file, as JavaScript strings count them. '
    + 'Invalid UTF-8 is replaced by U+FFFD unless --strict is given.',
  options: {
    abbreviations: { type: 'string', help: 'extra abbreviations, comma-separated (e.g. approx,dept)' },
    'newline-breaks': { type: 'boolean', help: 'every line break ends a sentence' },
    strict: { type: 'boolean', help: 'fail on invalid UTF-8 instead of repairing it' },
  },
  async run(values, positionals, io) {
    if (positionals.length !== 1) {
      io.stderr.write('ragwasm sentences: expected exactly one FILE (see --help)\n');
      return 2;
    }
    const text = decodeUtf8(readFileSync(positionals[0]), { fatal: !!values.strict });
    const options = {};
    if (values.abbreviations) options.abbreviations = values.abbreviations.split(',').map((s) => s.trim()).filter(Boolean);
    if (values['newline-breaks']) options.newlineBreaks = true;
    const out = splitSentences(text, options).map((s) => JSON.stringify(s)).join('\n');
    io.stdout.write(out + (out ? '\n' : ''));
    return 0;
  },
};
