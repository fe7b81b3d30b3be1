// Landing page: mark demos that are not built, and run the module check in a Web Worker.
const status = document.getElementById('status');
const table = document.getElementById('results');

const worker = new Worker(new URL('./landing-worker.js', import.meta.url), { type: 'module' });
worker.onmessage = ({ data }) => {
  if (data.error) {
    status.textContent = `Error ${data.error.code}: ${data.error.message}`;
    status.className = 'status err';
    return;
  }
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const d of data.documents) {
    const tr = document.createElement('tr');
    for (const [v, num] of [[d.id, false], [d.characters.toLocaleString('en-US'), true], [String(d.sentences), true]]) {
      const td = document.createElement('td');
      td.textContent = v;  // text only: document ids are data
      if (num) td.className = 'num';
      tr.append(td);
    }
    body.append(tr);
  }
  const foot = document.createElement('tr');
  foot.innerHTML = '<th scope="row">total</th><td class="num"></td><td class="num"></td>';
  foot.cells[1].textContent = data.totalCharacters.toLocaleString('en-US');
  foot.cells[2].textContent = String(data.totalSentences);
  table.tFoot.replaceChildren(foot);
  table.hidden = false;
  document.getElementById('version').textContent = `v${data.version} (${data.build} build)`;
  status.textContent = `done: ${data.documents.length} documents, ${data.totalSentences} sentences; ` +
    `module loaded in ${data.initMs.toFixed(0)} ms, split in ${data.splitMs.toFixed(1)} ms, in a ${data.context}`;
  status.className = 'status ok';
  status.dataset.state = 'done';
};
worker.onerror = (e) => {
  status.textContent = `Worker failed: ${e.message || 'could not start'}`;
  status.className = 'status err';
};
worker.postMessage({ corpusUrl: new URL('../dist/corpus.json', import.meta.url).href });
