/*
 * Who did what: the audit listing (GET /qawk/v1/audit), newest first, filtered by actor. It is read only while it is
 * open (two requests a poll: how many entries match, then the newest page), so the page costs nothing more otherwise.
 */
import { ui, h, button, fmtTime, scroller, empty, code, get, render } from './core.js';
import { view } from './registry.js';

const SHOWN = 50;
const state = { open: false, actor: '', typed: '' }; // typed: what the filter holds (kept across refreshes)

/** The newest SHOWN entries of the listing (oldest first in the API), for the actor typed, newest first. */
async function loadAudit(next) {
  if (!state.open) return;
  const actor = state.actor.trim();
  const q = actor ? `&actor=${encodeURIComponent(actor)}` : '';
  try {
    const { total } = await get(`/audit?limit=1${q}`);
    const page = await get(`/audit?offset=${Math.max(0, total - SHOWN)}&limit=${SHOWN}${q}`);
    next.audit = { actor, total: page.total, content: page.content.slice().reverse() };
  } catch (e) {
    next.audit = { actor, error: e.message };
  }
}

function entries(a) {
  if (!a) return h('p', { class: 'muted', text: 'Loading…' });
  if (a.error) return h('p', { class: 'muted', text: `Could not read the listing: ${a.error}` });
  if (!a.content.length) {
    return empty(a.actor ? `${a.actor} has done nothing through the API yet (the user name must match exactly).`
      : 'Nothing has been done through the API yet.');
  }
  return h('div', {},
    h('p', { class: 'muted', 'data-audit-count': a.total,
      text: a.total > a.content.length ? `The newest ${a.content.length} of ${a.total}.` : `${a.total} in all.` }),
    scroller('Who did what', h('table', { 'data-audit-list': '' },
      h('thead', {}, h('tr', {}, ['When', 'Who', 'Did', 'On', 'Request'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, a.content.map(e => h('tr', { 'data-audit': e.id },
        h('td', { text: fmtTime(e.at) }),
        h('td', { 'data-actor': '' }, h('strong', { text: e.actor })),
        h('td', {}, h('span', { text: e.action }), e.detail ? h('div', { class: 'muted', text: e.detail }) : null),
        h('td', {}, code(e.target)),
        h('td', { class: 'muted', text: `${e.method} ${e.path} → ${e.status}` })))))));
}

function renderAudit() {
  render('audit-body', JSON.stringify([state.open, ui.audit]), () => {
    const toggle = button(state.open ? 'Hide the listing' : 'Show who did what', async () => {
      state.open = !state.open;
      ui.audit = null;
      renderAudit();
      if (state.open) {
        const next = {};
        await loadAudit(next);
        Object.assign(ui, next);
        renderAudit();
      }
    }, { class: 'secondary', key: 'audit-toggle', expanded: state.open, controls: 'audit-entries' });
    if (!state.open) return h('div', {}, toggle);
    const filter = h('input', { type: 'search', id: 'audit-actor', name: 'actor', autocomplete: 'off', spellcheck: 'false',
      'data-key': 'audit-actor', placeholder: 'e.g. alice' });
    filter.value = state.typed;
    filter.addEventListener('input', () => { state.typed = filter.value; });
    const form = h('form', { class: 'filter', role: 'search' },
      h('label', { for: 'audit-actor', text: 'Only what this user did ' }), filter,
      h('button', { type: 'submit', class: 'secondary', 'data-key': 'audit-filter', text: 'Filter' }));
    form.addEventListener('submit', async e => {
      e.preventDefault();
      state.actor = filter.value;
      state.typed = filter.value;
      const next = {};
      await loadAudit(next);
      Object.assign(ui, next);
      renderAudit();
    });
    return h('div', {}, toggle, form, h('div', { id: 'audit-entries' }, entries(ui.audit)));
  });
}

view({
  name: 'audit',
  section: { id: 'audit', title: 'Who did what', after: 'channels',
    hint: 'Every command carried out through the API (a write that was accepted), who gave it and when; refusals and previews are not listed.' },
  load: loadAudit,
  render: renderAudit,
});
