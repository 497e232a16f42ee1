// The plan times as an SVG line chart: milliseconds by number of objects, one line per
// contender, both axes logarithmic.

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 64, right: 220, top: 36, bottom: 48 };
const COLOURS = { ours: '#d0021b', 'fast-json-patch': '#4a90e2', jsondiffpatch: '#7ed321', microdiff: '#f5a623', parse: '#777777' };

export function planPlot({ contenders, results }) {
  const sizes = results.map((result) => result.size);
  const values = results.flatMap((result) => Object.values(result.median));
  const [xLow, xHigh] = decades(Math.min(...sizes), Math.max(...sizes));
  const [yLow, yHigh] = decades(Math.min(...values), Math.max(...values));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (size) => MARGIN.left + (plotWidth * Math.log10(size / xLow)) / Math.log10(xHigh / xLow);
  const y = (value) => MARGIN.top + plotHeight - (plotHeight * Math.log10(value / yLow)) / Math.log10(yHigh / yLow);

  const grid = [];
  for (const tick of powersOfTen(yLow, yHigh)) {
    grid.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`);
    grid.push(`<text x="${MARGIN.left - 8}" y="${y(tick) + 4}" text-anchor="end">${label(tick)} ms</text>`);
  }
  for (const tick of powersOfTen(xLow, xHigh)) {
    grid.push(`<line x1="${x(tick)}" x2="${x(tick)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#ddd"/>`);
    grid.push(`<text x="${x(tick)}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${tick.toLocaleString('en-US')}</text>`);
  }
  const lines = contenders.map(({ id, label: name }, index) => {
    const colour = COLOURS[id] ?? '#000';
    const points = results.map((result) => `${x(result.size).toFixed(1)},${y(result.median[id]).toFixed(1)}`);
    const dots = points.map((point) => {
      const [cx, cy] = point.split(',');
      return `<circle cx="${cx}" cy="${cy}" r="3" fill="${colour}"/>`;
    });
    const legendY = MARGIN.top + 10 + index * 20;
    const legendX = MARGIN.left + plotWidth + 16;
    return [
      `<polyline points="${points.join(' ')}" fill="none" stroke="${colour}" stroke-width="${id === 'ours' ? 3 : 2}"${id === 'parse' ? ' stroke-dasharray="5 4"' : ''}/>`,
      ...dots,
      `<line x1="${legendX}" x2="${legendX + 20}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="3"${id === 'parse' ? ' stroke-dasharray="5 4"' : ''}/>`,
      `<text x="${legendX + 26}" y="${legendY + 4}">${escape(name)}</text>`,
    ].join('\n  ');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>
  <text x="${MARGIN.left}" y="20" font-size="14" font-weight="bold">Plan time by number of objects (1% drift, log scales)</text>
  ${grid.join('\n  ')}
  <text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 10}" text-anchor="middle">objects</text>
  ${lines.join('\n  ')}
</svg>
`;
}

/** The powers of ten around [low, high]. */
function decades(low, high) {
  return [10 ** Math.floor(Math.log10(low)), 10 ** Math.ceil(Math.log10(high))];
}

function powersOfTen(low, high) {
  const powers = [];
  for (let exponent = Math.round(Math.log10(low)); exponent <= Math.round(Math.log10(high)); exponent += 1) {
    powers.push(10 ** exponent);
  }
  return powers;
}

function label(value) {
  return value >= 1 ? value.toLocaleString('en-US') : String(value);
}

function escape(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
