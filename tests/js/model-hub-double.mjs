// startHub: a model hub on 127.0.0.1 laid out like Hugging Face's, for the createOnnxEmbedder(NAME) tests
// in Node and in Chromium: GET /<owner>/<name>/resolve/<revision>/<path> serves root/<path> for any repo
// and revision (404 "Entry not found" otherwise), with CORS headers so a page of another origin can fetch.
// It serves the files it is given (a generated BERT-shaped fixture), never real weights.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} root the folder whose files the hub serves
 * @returns {Promise<{url: string, requests: string[], close: () => Promise<void>}>}
 */
export async function startHub(root) {
  const hub = { requests: [] };
  hub.server = createServer((req, res) => {
    hub.requests.push(req.url);
    const m = /^\/[^/]+\/[^/]+\/resolve\/[^/]+\/(.+)$/.exec(req.url);
    const file = m ? join(root, decodeURIComponent(m[1])) : null;
    const cors = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
    if (!file || !existsSync(file)) {
      res.writeHead(404, { ...cors, 'Content-Type': 'text/plain' }).end('Entry not found');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { ...cors, 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
  });
  await new Promise((resolve) => hub.server.listen(0, '127.0.0.1', resolve));
  hub.url = `http://127.0.0.1:${hub.server.address().port}`;
  hub.close = () => new Promise((resolve) => { hub.server.closeAllConnections(); hub.server.close(resolve); });
  return hub;
}
