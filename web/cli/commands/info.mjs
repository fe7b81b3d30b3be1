// ragwasm info: version, build and limits of the loaded WASM module.
import { info } from '../../src/index.js';

export default {
  name: 'info',
  summary: 'print the version, build and limits of the WASM module (JSON)',
  usage: 'info',
  options: {},
  async run(values, positionals, io) {
    io.stdout.write(JSON.stringify(info(), null, 2) + '\n');
    return 0;
  },
};
