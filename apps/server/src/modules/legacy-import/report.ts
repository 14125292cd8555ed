import { formatDateTime } from '@sigaf/contract';
import { ANOMALY_KINDS, type ImportReport } from './types.js';

const cell = (s: string) => s.replace(/\|/g, '\\|');

/**
 * The import report as Markdown, for the administrator who runs it: counts per table, the
 * catalogue mapping, every observation with its source ids, and what to do next. Times are
 * `dd-mm-yyyy HH:mm` in Chile's time zone; the JSON report keeps the observation kinds' keys.
 */
export function reportMarkdown(r: ImportReport): string {
  const lines = [
    `# Importación desde SIGAF 1.x${r.dryRun ? ' (simulación: no se escribió nada)' : ''}`,
    '',
    `Inicio ${formatDateTime(r.startedAt)}, fin ${r.finishedAt ? formatDateTime(r.finishedAt) : '-'} (hora de Chile).`,
    '',
    '## Qué hacer ahora',
    '',
    ...nextSteps(r).map((s, i) => `${i + 1}. ${s}`),
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
    ...Object.entries(r.anomalyCounts).map(
      ([k, n]) => `- ${ANOMALY_KINDS[k as keyof typeof ANOMALY_KINDS] ?? k}: ${n}`,
    ),
    '',
    '## Observaciones (ids del origen)',
    '',
    '| tabla | ids | tipo | regla aplicada | detalle |',
    '|---|---|---|---|---|',
    ...r.anomalies.map(
      (a) =>
        `| ${a.table} | ${a.ids.join(', ')} | ${ANOMALY_KINDS[a.kind]} | ${cell(a.rule)} | ${cell(a.detail ?? '')} |`,
    ),
    '',
    '## Notas',
    '',
    ...r.notes.map((n) => `- ${n}`),
    '',
  ];
  return lines.join('\n');
}

/** What the administrator does after this run, in order. */
function nextSteps(r: ImportReport): string[] {
  const invalid = r.anomalies.filter((a) => a.kind === 'invalid_rut');
  const ruts = invalid.length
    ? `Corrija los RUT no válidos, que se importaron tal como estaban escritos: ${invalid
        .map(
          (a) =>
            `${a.table === 'users' ? 'funcionario' : 'estudiante'} ${a.ids[0]} (${a.detail ?? ''})`,
        )
        .join(', ')}. Búsquelos por su RUT o su nombre en Estudiantes o en Usuarios.`
    : 'No hay RUT no válidos que corregir.';
  if (r.dryRun)
    return [
      'Revise las observaciones de abajo: dicen qué se hará con cada fila que SIGAF 1.x permitía y este sistema no.',
      'Si algo debe corregirse en el origen, corríjalo en SIGAF 1.x y repita la simulación.',
      'Cuando esté conforme, ejecute la importación sin --dry-run.',
    ];
  const admin = r.firstAdmin
    ? ` Si prefiere, use el administrador inicial ${r.firstAdmin.email}${r.firstAdmin.file ? `: su contraseña de un solo uso está en ${r.firstAdmin.file}, que se borra cuando elige una nueva` : ''}.`
    : '';
  return [
    `Inicie sesión con una cuenta de administrador de SIGAF 1.x y su contraseña de siempre.${admin}`,
    ruts,
    'Sincronice cada curso con Moodle (Configuración › Actividades, «Sincronizar»): trae el avance y los últimos accesos de hoy y reemplaza las fechas aproximadas.',
  ];
}
