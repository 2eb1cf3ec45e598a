// heaptap's web page: polls /api/status, and while a capture has data, redraws the two flame
// graphs (/api/flamegraph) and the top-site tables (/api/top); while a leak watch runs, its ranking
// (/api/leaks); a class census when asked (/api/census). Every asset comes from this server.
(function () {
  const $ = id => document.getElementById(id);
  const allocGraph = heaptapFlameGraph($('alloc-graph'), $('alloc-details'));
  const liveGraph = heaptapFlameGraph($('live-graph'), $('live-details'));
  const fmtBytes = allocGraph.formatBytes;
  // An estimate with its 95% interval: "1.2 GiB ±3%" in the cell (compact enough for a column), the
  // interval itself in the tooltip.
  const range = (v, lo, hi) => hi > lo && v > 0
    ? [fmtBytes(v) + ' ±' + Math.round(50 * (hi - lo) / v) + '%', true, '95% interval: ' + fmtBytes(lo) + ' – ' + fmtBytes(hi)]
    : [fmtBytes(v), true];
  // com.example.Cache.put(Cache.java:42) -> Cache.put(Cache.java:42), the whole frame in the tooltip.
  const frame = at => {
    const paren = at.indexOf('(');
    const parts = (paren < 0 ? at : at.slice(0, paren)).split('.');
    return [(parts.length > 2 ? parts.slice(-2).join('.') : parts.join('.')) + (paren < 0 ? '' : at.slice(paren)), false, at];
  };
  const named = text => [text, false, text];
  const fmtMillis = ms => ms < 1000 ? ms + ' ms' : ms < 60000 ? (ms / 1000).toFixed(1) + ' s' : (ms / 60000).toFixed(1) + ' min';
  let lastState = null;
  let lastDraw = 0;
  let leakSnapshots = -1;
  let leakState = null;

  // A state change is sent as JSON: a request no page of another site can make the browser send. The
  // URL is absolute: a page opened as http://user:token@host/ may not fetch relative URLs.
  async function call(method, url) {
    const headers = {'Accept': 'application/json'};
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    const response = await fetch(location.origin + url, {method: method, headers: headers});
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
    return body;
  }

  function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }

  function showStatus(s) {
    $('pid').textContent = 'pid ' + s.pid;
    let text = s.state;
    if (s.state === 'recording') text += ', ' + fmtMillis(s.timeLeftMillis) + ' left';
    if (s.state !== 'idle') {
      text += '; ' + s.samples.toLocaleString() + ' samples; est. ' + fmtBytes(s.estimatedAllocatedBytes) + ' allocated, '
        + fmtBytes(s.estimatedLiveBytes) + ' proven live; started by ' + s.startedBy;
    }
    if (s.nativeAgentError) text += '; native agent unavailable: ' + s.nativeAgentError;
    $('status').textContent = text;
    // What GC cost during the capture, first line the warning when there is one.
    $('gc').replaceChildren(...s.gcSummary.map((line, i) => {
      const d = document.createElement('div');
      d.textContent = line;
      if (i === 0 && s.gc && s.gc.alarm) d.className = 'warn';
      return d;
    }));
    // The live set: proven apart from not yet examined, the markings behind the proof, impossible figures.
    const summary = s.live ? s.live.summary : [];
    $('live-summary').replaceChildren(...summary.map(line => {
      const d = document.createElement('div');
      d.textContent = line;
      if (line.startsWith('IMPOSSIBLE')) d.className = 'warn';
      return d;
    }));
    $('status').dataset.state = s.state;
    $('start').disabled = s.state === 'recording';
    $('stop').disabled = s.state !== 'recording';
  }

  function fillTable(id, rows, cells) {
    const body = document.querySelector('#' + id + ' tbody');
    body.replaceChildren(...rows.map(r => {
      const tr = document.createElement('tr');
      cells(r).forEach(([text, numeric, title, cls]) => {
        const td = document.createElement('td');
        td.textContent = text;
        if (numeric) td.className = 'num';
        if (cls) td.classList.add(cls);
        if (title) td.title = title;
        tr.appendChild(td);
      });
      return tr;
    }));
  }

  async function draw() {
    const data = await call('GET', '/api/flamegraph');
    allocGraph.show(data.alloc);
    liveGraph.show(data.live);
    const alloc = await call('GET', '/api/top?kind=alloc&n=15');
    fillTable('top-alloc', alloc.rows, r => [[r.rank, true], range(r.estimatedBytes, r.estimatedBytesLow, r.estimatedBytesHigh),
      [r.percent.toFixed(1), true],
      [r.samples.toLocaleString('en'), true], named(r.type), frame(r.frame)]);
    const live = await call('GET', '/api/top?kind=live&n=15');
    fillTable('top-live', live.rows, r => [[r.rank, true],
      r.impossible ? [range(r.estimatedBytes, r.estimatedBytesLow, r.estimatedBytesHigh)[0] + ' (impossible)', true, 'an estimate the heap cannot hold', 'warn']
        : range(r.estimatedBytes, r.estimatedBytesLow, r.estimatedBytesHigh),
      [fmtBytes(r.unexaminedBytes), true], [r.trackedObjects.toLocaleString('en'), true],
      [fmtMillis(r.medianAgeMillis), true], [fmtMillis(r.maxAgeMillis), true], named(r.type), frame(r.frame)]);
    document.body.dataset.drawn = String(Date.now());
  }

  // Which reading of the heap the time to OOM follows (HeapReading): the census's live bytes on ZGC and Shenandoah.
  function readingWords(t) {
    return t.reading === 'census' ? 'the live bytes the census counted' : 'the heap after GC';
  }

  // The whole heap after the last forced collection (a watch with a forced GC): what the sampled sites
  // explain, what the class census names for the rest (the heap that was there before heaptap came),
  // and the time to OOM. Without a forced GC there is no census, and the line says how to get one.
  function showHeap(h) {
    const lines = [];
    if (h === null) {
      if (leakState && leakState !== 'idle') lines.push(['the whole heap: no class census without "force a full GC"', '']);
    } else if (h.heapAfterGcBytes === null) {
      lines.push(['class census: none taken' + (h.refusal ? ': ' + h.refusal : ' yet'), h.refusal ? 'warn' : '']);
    } else {
      lines.push(['heap after the last forced GC ' + fmtBytes(h.heapAfterGcBytes) + ': the sampled sites explain '
        + fmtBytes(h.estimatedSampledBytes) + ' (estimated); the class census names ' + fmtBytes(h.unexplainedBytes)
        + ' more, present before heaptap came or not explained by the sites; accounted for '
        + Math.round(100 * h.accountedShare) + '%', '']);
      // The census counts every live object: the rest of the collector's figure, given when worth a line, holds none.
      if (h.notLiveBytes > 0) {
        lines.push(['the other ' + fmtBytes(h.notLiveBytes) + ' of the collector\'s figure holds no live object: space it keeps in use'
          + ' beyond them, such as the pages ZGC did not compact, counted whole with their garbage, or what the application'
          + ' allocated while a concurrent collector ran', '']);
      }
      const classes = h.classes.slice(0, 5).filter(c => c.unexplainedBytes > 0)
        .map(c => c.name + ' ' + fmtBytes(c.unexplainedBytes)).join(', ');
      if (classes) lines.push(['not explained by the sites, by class: ' + classes, '']);
      const t = h.timeToOom;
      if (t) {
        lines.push([t.trend
          ? 'time to OOM: ' + fmtMillis(Math.round(t.millis)) + ' (95%: ' + fmtMillis(Math.round(t.millisLow)) + ' – '
            + (t.millisHigh > 0 ? fmtMillis(Math.round(t.millisHigh)) : 'never') + ') at +'
            + fmtBytes(t.heapBytesPerMinute) + '/min of ' + readingWords(t)
          : 'time to OOM: no trend in ' + readingWords(t) + ' (' + t.points + ' points)', t.trend ? 'warn' : '']);
      }
    }
    $('leak-heap').replaceChildren(...lines.map(([text, cls]) => {
      const d = document.createElement('div');
      d.textContent = text;
      if (cls) d.className = cls;
      return d;
    }));
  }

  // The ranking changes only with a snapshot: redraw when their count or the watch's state changes.
  async function drawLeaks() {
    const r = await call('GET', '/api/leaks?n=15');
    const w = r.watch;
    if (w.state === leakState && w.snapshots === leakSnapshots) return;
    leakState = w.state;
    leakSnapshots = w.snapshots;
    $('leak-stop').disabled = w.state !== 'watching';
    if (w.state === 'idle') {
      $('leak-status').textContent = 'no leak watch yet';
      fillTable('leak-table', [], () => []);
      showHeap(null);
      return;
    }
    showHeap(r.heap);
    $('leak-status').textContent = w.state + (w.endReason ? ' (' + w.endReason + ')' : '') + ': ' + fmtMillis(w.elapsedMillis)
      + ' of ' + fmtMillis(w.durationMillis) + ', ' + w.snapshots + ' snapshots, ' + w.gcs + ' collections, '
      + w.markings + ' whole-heap markings' + (w.gcForced ? ' (forced, longest pause ' + fmtMillis(w.maxPauseMillis) + ')' : '') + '; '
      + w.leakSuspects + ' leak suspect(s) among ' + w.sitesFollowed + ' sites';
    fillTable('leak-table', r.sites, s => [[s.rank, true], [s.verdict], [Math.round(100 * s.confidence) + '%', true],
      range(s.estimatedLiveBytes, s.estimatedLiveBytesLow, s.estimatedLiveBytesHigh),
      [fmtBytes(s.estimatedUnexaminedBytes), true], [(s.liveBytesPerMinute < 0 ? '-' : '+') + fmtBytes(Math.abs(s.liveBytesPerMinute)), true],
      [fmtMillis(s.maxAgeMillis), true], [fmtMillis(s.medianAgeMillis), true, null, 'wide-only'], named(s.type), frame(s.allocatedAt),
      [s.reason, false, s.reason, 'prose']]);
    document.body.dataset.leaksDrawn = String(w.snapshots);
  }

  async function refresh() {
    try {
      const s = await call('GET', '/api/status');
      showStatus(s);
      await drawLeaks();
      const changed = s.state !== lastState;
      lastState = s.state;
      if (s.state !== 'idle' && (changed || (s.state === 'recording' && Date.now() - lastDraw > 2000))) {
        lastDraw = Date.now();
        await draw();
      }
      showError(null);
    } catch (e) {
      showError(e);
    }
  }

  async function act(method, url) {
    try {
      showError(null);
      await call(method, url);
      lastState = null;
      await refresh();
    } catch (e) {
      showError(e);
    }
  }

  // A census on demand: the classes with the most bytes and the rest as one row, with the pauses it cost.
  async function takeCensus() {
    const button = $('census-take');
    button.disabled = true;
    $('census-status').textContent = 'forcing a full GC, then counting every class…';
    try {
      showError(null);
      const c = await call('POST', '/api/census?n=20');
      const pct = b => c.censusBytes > 0 ? (100 * b / c.censusBytes).toFixed(1) : '0.0';
      $('census-status').textContent = 'heap in use after the forced GC ' + fmtBytes(c.heapAfterGcBytes)
        + (c.maxHeapBytes > 0 ? ' of ' + fmtBytes(c.maxHeapBytes) + ' max' : '') + '; census ' + fmtBytes(c.censusBytes) + ' in '
        + c.censusInstances.toLocaleString('en') + ' objects; paused the application ' + fmtMillis(c.collectionPauseMillis)
        + ' (collection) and ' + fmtMillis(c.censusPauseMillis) + ' (census)'
        + (c.censusBytes > 1.02 * c.heapAfterGcBytes ? '; the census counted ' + fmtBytes(c.censusBytes - c.heapAfterGcBytes)
          + ' more: what the application allocated between the collection and the census, dead or not' : '');
      const rows = c.classes.slice();
      if (c.otherClasses.classes > 0) {
        rows.push({name: '(' + c.otherClasses.classes.toLocaleString('en') + ' other classes)',
          bytes: c.otherClasses.bytes, instances: c.otherClasses.instances});
      }
      fillTable('census-table', rows, r => [[fmtBytes(r.bytes), true], [pct(r.bytes), true],
        [r.instances.toLocaleString('en'), true], named(r.name)]);
      document.body.dataset.censusDrawn = String(Date.now());
    } catch (e) {
      $('census-status').textContent = 'no census';
      showError(e);
    } finally {
      button.disabled = false;
    }
  }

  $('census-take').onclick = takeCensus;
  $('start').onclick = () => act('POST', '/api/start?duration=' + encodeURIComponent($('duration').value)
    + '&interval=' + encodeURIComponent($('interval').value) + '&live=' + $('live').checked);
  $('stop').onclick = () => act('POST', '/api/stop');
  $('reset').onclick = () => act('POST', '/api/reset');
  $('leak-start').onclick = () => act('POST', '/api/leaks/start?duration=' + encodeURIComponent($('leak-duration').value)
    + '&every=' + encodeURIComponent($('leak-every').value) + '&gc=' + $('leak-gc').checked);
  $('leak-stop').onclick = () => act('POST', '/api/leaks/stop');
  refresh();
  setInterval(refresh, 1000);
})();
