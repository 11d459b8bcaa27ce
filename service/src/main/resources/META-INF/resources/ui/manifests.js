/*
 * Manifests: each component's set (name:version) grouped by order, and the verification query a component names.
 */
import { ui, h, fmtTime, scroller, empty, code, render } from './core.js';
import { view } from './registry.js';

function renderManifests() {
  render('manifests-body', JSON.stringify([ui.manifests, ui.types.map(t => [t.id, t.name]), ui.me.canWrite]), () => {
    if (!ui.manifests.length) {
      return empty(h('strong', { text: 'No manifests yet' }), ui.me.canWrite ? ' — press “New manifest…” above, or create one with ' : ' — create one with ',
        code('POST /qawk/v1/manifests'),
        ' or import a Mender manifest with ', code('POST /qawk/v1/manifests/import'),
        '. A manifest gives each component of a system type a distribution set and an order.');
    }
    const typeName = id => (ui.types.find(t => t.id === id) || {}).name || `#${id}`;
    return scroller('Manifests', h('table', {},
      h('thead', {}, h('tr', {}, ['Manifest', 'System type', 'Components by order (set name:version)', 'Changed'].map(x => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, ui.manifests.map(m => {
        const byOrder = new Map();
        for (const c of m.components.slice().sort((a, b) => a.order - b.order || a.componentType.localeCompare(b.componentType))) {
          if (!byOrder.has(c.order)) byOrder.set(c.order, []);
          byOrder.get(c.order).push(c);
        }
        return h('tr', { 'data-manifest': m.id },
          h('td', {}, h('strong', { text: m.name }), h('div', { class: 'muted', text: `#${m.id}` })),
          h('td', { text: typeName(m.systemTypeId) }),
          h('td', {}, h('ol', { class: 'orders' }, [...byOrder.entries()].map(([order, cs], i) => h('li', {},
            h('span', { class: 'order-no', text: `order ${order}` }),
            cs.map((c, j) => [j ? ', ' : '', h('span', { text: `${c.componentType} ` }), h('span', { class: 'set', text: c.distributionSet || `#${c.distributionSetId}` }),
              c.verify ? [h('span', { class: 'muted', text: ' must report ' }), code(c.verify)] : null]),
            i === 0 && byOrder.size > 1 ? h('span', { class: 'muted', text: ' — first' }) : null)))),
          h('td', { class: 'muted', text: fmtTime(m.updatedAt || m.createdAt) }));
      }))));
  });
}


view({ name: 'manifests', render: renderManifests });
