// The nodes view: GET /v1/cluster polled every 2 s while visible: the live nodes (id, address, partitions owned,
// last heartbeat) and a map of every partition colored by its owner. The wheel above is always the wheel of the node
// serving this console (its /v1/wheel/stream: in a cluster, the wheels of every partition that node owns, drawn as
// one); the card says which. A server without /v1/cluster is one node
// owning everything.

import { api } from './api.js';
import { fmtInt } from './format.js';

const REFRESH_MS = 2000;
const COLORS = ['#3fd0c9', '#f4a261', '#9ecbff', '#5dd39e', '#f4c15d', '#c792ea', '#ff7a7a', '#82aaff',
  '#addb67', '#f78c6c', '#7fdbca', '#ffcb8b'];

export class NodesView {
  constructor() {
    this.body = document.getElementById('nodes-body');
    this.status = document.getElementById('nodes-status');
    this.meta = document.getElementById('nodes-meta');
    this.map = document.getElementById('partition-map');
    this.wheelNode = document.getElementById('wheel-node');
    this.colorOf = new Map();     // node id -> color, stable while the page lives
    this.rows = new Map();        // node id -> its row, reconciled on each poll (no flicker, stable elements)
    this.cells = [];
    this.loading = false;
    setInterval(() => { if (!document.hidden && !this.loading) this.load(); }, REFRESH_MS);
  }

  async load() {
    this.loading = true;
    try {
      const c = await api('GET', 'v1/cluster');
      this.render(c);
      this.status.textContent = '';
    } catch (e) {
      if (e.status === 404) {
        this.render(null);
      } else {
        this.status.textContent = 'Nodes: ' + e.message;
        this.status.dataset.tone = 'bad';
      }
    } finally {
      this.loading = false;
    }
  }

  color(id) {
    if (!this.colorOf.has(id)) this.colorOf.set(id, COLORS[this.colorOf.size % COLORS.length]);
    return this.colorOf.get(id);
  }

  render(c) {
    if (!c) {
      this.meta.textContent = 'a single node (no cluster)';
      this.body.replaceChildren();
      this.rows.clear();
      this.map.replaceChildren();
      this.cells = [];
      this.wheelNode.hidden = true;
      return;
    }
    const nodes = Array.isArray(c.nodes) ? c.nodes : [];
    const owners = Array.isArray(c.owners) ? c.owners : [];
    const seen = new Set();
    let before = this.body.firstElementChild;
    for (const n of nodes) {
      seen.add(n.id);
      let row = this.rows.get(n.id);
      if (!row) { row = this.row(n.id); this.rows.set(n.id, row); }
      this.fill(row, n, n.id === c.nodeId);
      if (row.tr !== before) this.body.insertBefore(row.tr, before);
      else before = before.nextElementSibling;
    }
    for (const [id, row] of this.rows) {
      if (!seen.has(id)) { row.tr.remove(); this.rows.delete(id); }
    }
    this.meta.textContent = fmtInt(nodes.length) + ' nodes · ' + fmtInt(c.partitions) + ' partitions · polled every 2 s';
    this.wheelNode.hidden = false;
    this.wheelNode.textContent = 'the wheel of node ' + c.nodeId + ' (the node serving this console; '
        + 'in a cluster, the wheels of every partition it owns, drawn as one)';
    this.paint(c.partitions, owners);
  }

  row(id) {
    const tr = document.createElement('tr');
    tr.dataset.node = id;
    const name = document.createElement('td');
    const sw = document.createElement('span'); sw.className = 'node-swatch'; sw.style.background = this.color(id);
    const here = document.createElement('span'); here.className = 'here'; here.textContent = 'this console';
    name.append(sw, id, here);
    const addr = document.createElement('td'); addr.className = 'mono';
    const parts = document.createElement('td'); parts.className = 'num';
    const seen = document.createElement('td'); seen.className = 'num';
    tr.append(name, addr, parts, seen);
    return { tr, here, addr, parts, seen };
  }

  fill(row, n, here) {
    row.here.hidden = !here;
    row.addr.textContent = n.address || '—';
    row.parts.textContent = fmtInt(n.partitions);
    row.seen.textContent = n.lastSeenAt ? new Date(n.lastSeenAt).toLocaleTimeString() : '—';
  }

  paint(count, owners) {
    const n = Math.max(0, Math.min(4096, count | 0));
    while (this.cells.length < n) {
      const i = document.createElement('i');
      this.cells.push(i);
      this.map.append(i);
    }
    while (this.cells.length > n) this.cells.pop().remove();
    const byPartition = new Array(n).fill(null);
    for (const o of owners) if (o.partition >= 0 && o.partition < n) byPartition[o.partition] = o;
    for (let p = 0; p < n; p++) {
      const o = byPartition[p];
      const cell = this.cells[p];
      const owner = o && o.node ? o.node : '';
      if (cell.dataset.owner !== owner) {
        cell.dataset.owner = owner;
        cell.style.background = owner ? this.color(owner) : '';
      }
      cell.title = 'partition ' + p + ' → ' + (owner ? owner + ' (epoch ' + o.epoch + ')' : 'no owner now');
    }
  }
}
