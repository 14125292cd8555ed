import type { ImportReport } from './service.js';

/** The import report as Markdown: counts per table, the catalogue mapping, every anomaly with its source ids. */
export function reportMarkdown(r: ImportReport): string {
  const lines = [
    `# Importación desde SIGAF 1.x${r.dryRun ? ' (simulación: no se escribió nada)' : ''}`,
    '',
    `Inicio ${r.startedAt}, fin ${r.finishedAt ?? '-'}.`,
    '',
    '## Filas por tabla',
    '',
    '| tabla | leídas | importadas |',
    '|---|---:|---:|',
    ...Object.entries(r.tables).map(([t, n]) => `| ${t} | ${n.read} | ${n.imported} |`),
    '',
    '## Catálogos (descripción → id en este sistema)',
    '',
    ...Object.entries(r.catalogues).map(
      ([t, rows]) =>
        `- **${t}**: ${rows.map((x) => `${x.description} (${x.legacyId}) → ${x.targetId}${x.created ? ' *nuevo*' : ''}`).join('; ')}`,
    ),
    '',
    '## Observaciones por tipo',
    '',
    ...Object.entries(r.anomalyCounts).map(([k, n]) => `- ${k}: ${n}`),
    '',
    '## Observaciones (ids del origen)',
    '',
    '| tabla | ids | tipo | regla aplicada | detalle |',
    '|---|---|---|---|---|',
    ...r.anomalies.map(
      (a) =>
        `| ${a.table} | ${a.ids.join(', ')} | ${a.kind} | ${a.rule} | ${(a.detail ?? '').replace(/\|/g, '\\|')} |`,
    ),
    '',
    '## Notas',
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ];
  return lines.join('\n');
}
