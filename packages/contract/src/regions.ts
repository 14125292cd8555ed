/** The 16 regions of Chile, north to south (docs/development/domain.md#regions). */
export const CHILE_REGIONS = [
  'Arica y Parinacota',
  'Tarapacá',
  'Antofagasta',
  'Atacama',
  'Coquimbo',
  'Valparaíso',
  'Metropolitana de Santiago',
  "Libertador General Bernardo O'Higgins",
  'Maule',
  'Ñuble',
  'Biobío',
  'La Araucanía',
  'Los Ríos',
  'Los Lagos',
  'Aysén del General Carlos Ibáñez del Campo',
  'Magallanes y de la Antártica Chilena',
] as const;
export type ChileRegion = (typeof CHILE_REGIONS)[number];

const plainText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Roman numerals, numbers and names people write for each region, by its index in CHILE_REGIONS. */
const REGION_ALIASES: ReadonlyArray<readonly string[]> = [
  ['xv', '15', 'arica', 'parinacota'],
  ['i', '1', 'tarapaca', 'iquique'],
  ['ii', '2', 'antofagasta'],
  ['iii', '3', 'atacama', 'copiapo'],
  ['iv', '4', 'coquimbo', 'la serena'],
  ['v', '5', 'valparaiso'],
  ['xiii', '13', 'rm', 'r m', 'metropolitana', 'santiago', 'region metropolitana'],
  ['vi', '6', 'ohiggins', 'o higgins', 'libertador', 'rancagua'],
  ['vii', '7', 'maule', 'talca'],
  ['xvi', '16', 'nuble', 'chillan'],
  ['viii', '8', 'biobio', 'bio bio', 'concepcion'],
  ['ix', '9', 'araucania', 'temuco'],
  ['xiv', '14', 'los rios', 'valdivia'],
  ['x', '10', 'los lagos', 'puerto montt'],
  ['xi', '11', 'aysen', 'aisen', 'coyhaique'],
  ['xii', '12', 'magallanes', 'punta arenas', 'antartica'],
];

/**
 * One of the 16 regions for the free text a file or Moodle brings ("Región Metropolitana de
 * Santiago", "Metropolitana", "RM", "XIV", "Región de Ñuble", "biobio"), or null when it says
 * none of them (the caller keeps the text and reports it).
 */
export function normalizeRegion(text: string | null | undefined): ChileRegion | null {
  if (!text) return null;
  const plain = plainText(text)
    .replace(/^(la )?region( de( la)?| del)? /, '')
    .replace(/ region$/, '')
    .trim();
  if (!plain) return null;
  const exact = CHILE_REGIONS.findIndex((r) => plainText(r) === plain);
  if (exact >= 0) return CHILE_REGIONS[exact]!;
  // Whole-word aliases: numerals and numbers must be the whole text; names may be part of it.
  for (const [i, aliases] of REGION_ALIASES.entries()) {
    if (
      aliases.some((a) =>
        a.length <= 4 ? plain === a || plain === `${a} region` : ` ${plain} `.includes(` ${a} `),
      )
    )
      return CHILE_REGIONS[i]!;
  }
  const partial = CHILE_REGIONS.findIndex((r) => plain.length > 4 && plainText(r).includes(plain));
  return partial >= 0 ? CHILE_REGIONS[partial]! : null;
}
