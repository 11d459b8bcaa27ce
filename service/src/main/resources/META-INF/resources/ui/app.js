/*
 * The Orchestrator screen's entry (a native ES module, no build step): it loads the views, each of which adds itself
 * to the registry (registry.js), then polls — every view loads what it shows, the data is taken over at once, and
 * every view renders what changed. The page's other files hand their work to the registry; nothing else is global but
 * window.qawk.plugin, kept for scripts that are not modules.
 */
import { ui, h, button, code, api, get, problemText, notice, setLive, act, pill, setName, fmtTime, lower, POLL_MS }
  from './core.js';
import { hook, view, allViews, plugin, allPlugins, onRefresh } from './registry.js';
import { confirmThen } from './dialogs.js';
import { planView } from './plan.js';
import { openDrawer, closeDrawer, refreshDrawer } from './drawer.js';
import { versionsWords } from './census.js';
import './deployments.js';
import './types.js';
import './manifests.js';
import './channels.js';
import './audit.js';
import './rules.js';
import './channel-forms.js';
import './forms.js';
import './new-deployment.js';
import './new-manifest.js';
import './guard.js';
import './approval.js';
import './evidence.js';

// ---------------------------------------------------------------------------------------------------------------
// Polling

async function refresh() {
  const [deployments, types, manifests, fleets] = await Promise.all([
    get('/systemdeployments'), get('/systemtypes'), get('/manifests'),
    api('GET', '/fleets').then(r => (r.status === 200 && Array.isArray(r.data) ? r.data : null)).catch(() => null),
  ]);
  const base = { deployments, types, manifests, fleets };
  const next = { ...base };
  await Promise.all(allViews().filter(v => v.load).map(v => v.load(next, base)));
  Object.assign(ui, next);
  await refreshDrawer();
  renderAll();
}

onRefresh(refresh);

function renderAll() {
  for (const v of allViews()) v.render();
}

async function poll() {
  try {
    if (!document.hidden) {
      await refresh();
      setLive(true);
    }
  } catch (e) {
    setLive(false, e.message);
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

/** The section of a view that asks for one (spec.section), made once, where it says. */
function addSection(s) {
  if (document.getElementById(s.id)) return;
  const section = h('section', { id: s.id, 'aria-labelledby': `${s.id}-title`, hidden: s.hidden },
    h('div', { class: 'section-head' }, h('h2', { id: `${s.id}-title`, text: s.title }), h('div', { id: `${s.id}-actions` })),
    s.hint ? h('p', { class: 'hint', text: s.hint }) : null,
    h('div', { id: `${s.id}-body` }));
  const after = s.after && document.getElementById(s.after);
  if (after) after.after(section); else document.querySelector('main').append(section);
}

async function start() {
  try {
    ui.me = await get('/me');
  } catch (e) {
    ui.me = { user: null, roles: [], canWrite: false };
  }
  const who = document.getElementById('who');
  who.textContent = ui.me.user
    ? `Signed in as ${ui.me.name || ui.me.user} — ${ui.me.canWrite ? 'may change things' : 'read only: actions are hidden'}`
    : 'Not signed in';
  if (ui.me.signOut) {
    // signed in through the identity provider: signing out ends the session there too
    const out = h('a', { id: 'sign-out', class: 'sign-out', href: ui.me.signOut, text: 'Sign out' });
    who.after(out);
  }
  document.body.classList.toggle('read-only', !ui.me.canWrite);
  for (const v of allViews()) {
    if (v.section) addSection(v.section);
  }
  for (const v of allViews()) {
    if (v.start) v.start(shared);
  }
  for (const p of allPlugins()) p(shared);

  document.getElementById('drawer-close').addEventListener('click', closeDrawer);
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape' && ui.openDeployment !== null && !document.querySelector('dialog[open]')) {
      e.preventDefault();
      closeDrawer();
    }
  });
  for (const b of document.querySelectorAll('[data-dialog-cancel]')) {
    b.addEventListener('click', () => b.closest('dialog').close(''));
  }
  const m = /^#deployment-(\d+)$/.exec(location.hash);
  if (m) ui.openDeployment = Number(m[1]);
  if (ui.openDeployment !== null) document.getElementById('drawer').hidden = false;
  window.addEventListener('hashchange', followAddress);
  window.addEventListener('popstate', followAddress);
  poll();
}

/** The view follows the address: #deployment-N opens that deployment's drawer, any other address closes it. */
function followAddress() {
  const m = /^#deployment-(\d+)$/.exec(location.hash);
  const id = m ? Number(m[1]) : null;
  if (id === ui.openDeployment) return;
  for (const d of document.querySelectorAll('dialog[open]')) d.close('');
  if (id === null) closeDrawer();
  else openDrawer(id, document.activeElement);
}

// ---------------------------------------------------------------------------------------------------------------
// What the page's other files use (install(shared) runs once the user is known): modules may import these from
// core.js and registry.js instead; scripts that are not modules register with window.qawk.plugin(install).

const shared = { ui, h, button, code, api, get, problemText, notice, refresh, openDrawer, planView, fmtTime, lower,
  act, confirmThen, pill, setName, versionsWords, hook, view };
window.qawk = Object.freeze({ plugin });

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
