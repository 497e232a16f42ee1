// A table written twice: aligned text for the terminal, and Markdown for the report.
// The first column is left-aligned, the others right-aligned.

export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map(String));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const pad = (cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]));
  const text = cells.map((row) => `  ${row.map(pad).join('   ')}`.trimEnd()).join('\n');
  const markdown = [
    `| ${headers.join(' | ')} |`,
    `|${headers.map((_, column) => (column === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  return { text, markdown };
}

export const ms = (value) => (value === undefined ? 'n/a' : value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
export const times = (value) => `x${value >= 10 ? value.toFixed(1) : value.toFixed(2)}`;
export const count = (value) => value.toLocaleString('en-US');
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
