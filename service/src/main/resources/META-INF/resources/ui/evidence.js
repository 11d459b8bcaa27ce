/*
 * The evidence record on the screen (issue 42), an ES module that adds its buttons to the deployment drawer
 * (registry.js: deploymentActions, where "drawer").
 * An ended deployment (finished, failed, aborted) offers its evidence record for download, to readers too:
 * "Evidence (JSON)" (GET /systemdeployments/{id}/evidence, the record sealed at its end with its SHA-256) and
 * "Evidence (CSV)" (the same with Accept: text/csv, one row per system and device). A refusal is shown in the
 * API's words. Nothing from the record is put into the page: it is only saved as a file.
 */

const ENDED = new Set(['FINISHED', 'FAILED', 'ABORTED']);

import { plugin } from './registry.js';

plugin(shared => {
  const { button, notice } = shared;

  async function download(d, accept, extension) {
    const res = await fetch(`/qawk/v1/systemdeployments/${d.id}/evidence`, {
      cache: 'no-store', credentials: 'same-origin', redirect: 'manual',
      headers: { Accept: accept, 'X-Requested-With': 'JavaScript' },
    });
    if (!res.ok) {
      let data = null;
      try { data = await res.json(); } catch (e) { data = null; }
      notice(`No evidence record for “${d.name}”: ${shared.problemText({ status: res.status, data })}`, true);
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `deployment-${d.id}-evidence.${extension}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  shared.hook('deploymentActions', (d, where) => {
    if (where !== 'drawer' || !d || !ENDED.has(d.state)) return null;
    return [
      button('Evidence (JSON)', () => download(d, 'application/json', 'json'),
        { key: `evidence-json-${d.id}`, class: 'secondary', ariaLabel: `Download the evidence record of ${d.name} as JSON` }),
      ' ',
      button('Evidence (CSV)', () => download(d, 'text/csv', 'csv'),
        { key: `evidence-csv-${d.id}`, class: 'secondary', ariaLabel: `Download the evidence record of ${d.name} as CSV` }),
    ];
  });
});
