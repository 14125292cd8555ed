/**
 * WCAG 2.x contrast: relative luminance of sRGB colours and the ratio between two of them
 * (4.5:1 for text, 3:1 for large text and for graphics such as chart slices, WCAG AA).
 */

export const AA_TEXT = 4.5;
export const AA_NON_TEXT = 3;

/** [r, g, b, a] (0–255, alpha 0–1) of `#rgb`, `#rrggbb` or `rgb()/rgba()`. */
export function parseColor(color: string): [number, number, number, number] {
  const c = color.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c);
  if (hex) {
    const h = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    return [
      parseInt(h.slice(0, 2), 16),
      parseInt(h.slice(2, 4), 16),
      parseInt(h.slice(4, 6), 16),
      1,
    ];
  }
  const rgb = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/i.exec(
    c,
  );
  if (rgb)
    return [
      Number(rgb[1]),
      Number(rgb[2]),
      Number(rgb[3]),
      rgb[4] === undefined ? 1 : Number(rgb[4]),
    ];
  throw new Error(`Unknown colour: ${color}`);
}

/** `color` drawn over the opaque `background` (for translucent text colours such as rgba(0,0,0,0.6)). */
function over(color: string, background: string): [number, number, number] {
  const [r, g, b, a] = parseColor(color);
  const [br, bg, bb] = parseColor(background);
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Contrast ratio (1–21) of `foreground` on the opaque `background`. */
export function contrastRatio(foreground: string, background: string): number {
  const a = luminance(over(foreground, background));
  const b = luminance(over(background, background));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const toHex = (rgb: number[]) =>
  `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * `color` itself when it reaches `min`:1 against `background`; otherwise the same hue darkened
 * (mixed with black) just enough to reach it.
 */
export function withContrast(color: string, background = '#ffffff', min = AA_NON_TEXT): string {
  if (contrastRatio(color, background) >= min) return color;
  const [r, g, b] = over(color, background);
  for (let k = 0.95; k > 0; k -= 0.05) {
    const shade = toHex([r * k, g * k, b * k]);
    if (contrastRatio(shade, background) >= min) return shade;
  }
  return '#000000';
}
