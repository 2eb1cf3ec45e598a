// heaptap's flame graph renderer, drawn with d3. Used by the self-contained HTML dump (inlined)
// and by the web page of the HTTP endpoint (served as /assets/flamegraph.js).
// A tree node is {n: name, s: own estimated bytes, c: [children]}.
function heaptapFlameGraph(svgElement, detailsElement) {
  const rowHeight = 18;
  const svg = d3.select(svgElement);
  const width = () => svgElement.getBoundingClientRect().width || 1200;
  const fmt = b => { const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB']; let i = 0; while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; } return b.toFixed(i ? 1 : 0) + ' ' + u[i]; };
  const color = d => d.children ? d3.interpolateYlOrRd(0.25 + 0.5 * ((d.data.n.length * 7) % 10) / 10) : '#6aa5d8';
  let root, total, cells;

  function zoom(focus) {
    if (!cells) return;
    const x = d3.scaleLinear().domain([focus.x0, focus.x1]).range([0, width()]);
    cells.attr('transform', d => 'translate(' + x(d.x0) + ',' + (d.y0 * rowHeight) + ')')
      .style('display', d => (d.x1 <= focus.x0 || d.x0 >= focus.x1) ? 'none' : null);
    cells.select('rect').attr('width', d => Math.max(0, x(d.x1) - x(d.x0) - 0.5));
    cells.select('text').attr('x', 3).text(d => {
      const room = Math.floor((x(d.x1) - x(d.x0) - 6) / 6.6);
      return room < 3 ? '' : d.data.n.length > room ? d.data.n.slice(0, room - 1) + '…' : d.data.n;
    });
  }

  function show(tree) {
    root = d3.hierarchy(tree, d => d.c).sum(d => d.s).sort((a, b) => b.value - a.value);
    svg.attr('height', (root.height + 1) * rowHeight);
    d3.partition().size([1, root.height + 1])(root);
    total = root.value || 1;
    svg.selectAll('g').remove();
    cells = svg.selectAll('g').data(root.descendants()).join('g');
    cells.append('rect').attr('height', rowHeight - 1).attr('fill', color)
      .on('click', (event, d) => zoom(d))
      .on('mouseover', (event, d) => {
        if (detailsElement) detailsElement.textContent = d.data.n + '  ' + fmt(d.value) + '  (' + (100 * d.value / total).toFixed(2) + '%)';
      });
    cells.append('title').text(d => d.data.n + '\n' + fmt(d.value) + ' (' + (100 * d.value / total).toFixed(2) + '%)');
    cells.append('text').attr('y', rowHeight - 5);
    zoom(root);
  }

  // Marks the frames whose name contains q; returns the share of all bytes under them (each byte
  // counted once, however many matching frames sit above it), as async-profiler's "Matched".
  function highlight(q) {
    if (!cells) return undefined;
    const match = d => q.length > 0 && d.data.n.toLowerCase().includes(q.toLowerCase());
    cells.select('rect').classed('match', match);
    let matched = 0;
    root.each(d => { if (match(d) && !d.ancestors().slice(1).some(match)) matched += d.value; });
    return matched / total;
  }

  window.addEventListener('resize', () => root && zoom(root));
  return {
    show,
    resetZoom: () => root && zoom(root),
    highlight,
    formatBytes: fmt
  };
}
