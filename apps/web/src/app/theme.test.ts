import {
  CHART_PALETTE,
  LOGGED_TIME_COLORS,
  PROGRESS_COLORS,
  STATE_LOOKS,
  THEME_COLORS,
} from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import { withReadableColors } from '../components/charts/chartModel';
import { textOn } from '../components/StateChip';
import { AA_NON_TEXT, AA_TEXT, contrastRatio, withContrast } from '../lib/contrast';
import { buildTheme } from './theme';

const ratio = (fg: string, bg: string) => Math.round(contrastRatio(fg, bg) * 100) / 100;

describe('WCAG contrast', () => {
  it('computes the ratios WCAG publishes', () => {
    expect(ratio('#000000', '#ffffff')).toBe(21);
    expect(ratio('#ffffff', '#ffffff')).toBe(1);
    expect(ratio('#777777', '#ffffff')).toBe(4.48);
    // Translucent text is measured as drawn over its background.
    expect(ratio('rgba(0, 0, 0, 0.6)', '#ffffff')).toBe(ratio('#666666', '#ffffff'));
  });

  it('darkens a light colour just enough, and leaves a dark one as it is', () => {
    expect(withContrast('#006C8D')).toBe('#006C8D');
    const green = withContrast('#5cb85c');
    expect(contrastRatio(green, '#ffffff')).toBeGreaterThanOrEqual(AA_NON_TEXT);
    expect(contrastRatio(green, '#ffffff')).toBeLessThan(AA_NON_TEXT + 0.6);
  });
});

describe.each(['es', 'en'])('theme colours reach WCAG AA (%s)', (lang) => {
  const { palette } = buildTheme(lang);
  const backgrounds = { paper: palette.background.paper, page: palette.background.default };
  const intents = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;

  it.each(intents)(
    '%s: its text on its own colour (app bar, filled buttons and chips) is 4.5:1',
    (intent) => {
      const c = palette[intent];
      expect(
        ratio(c.contrastText, c.main),
        `${c.contrastText} on ${c.main}`,
      ).toBeGreaterThanOrEqual(AA_TEXT);
    },
  );

  it.each(intents)(
    '%s: as text on the paper and on the page (outlined chips, text buttons, links) is 4.5:1',
    (intent) => {
      for (const [name, bg] of Object.entries(backgrounds)) {
        expect(
          ratio(palette[intent].main, bg),
          `${intent} ${palette[intent].main} on ${name} ${bg}`,
        ).toBeGreaterThanOrEqual(AA_TEXT);
      }
    },
  );

  it('the body and secondary text are 4.5:1 on the paper and on the page', () => {
    for (const text of [palette.text.primary, palette.text.secondary]) {
      for (const [name, bg] of Object.entries(backgrounds))
        expect(ratio(text, bg), `${text} on ${name}`).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('the blue app bar and the red of the brand carry white text at 4.5:1', () => {
    expect(palette.primary.main).toBe(THEME_COLORS.blue);
    expect(ratio('#ffffff', THEME_COLORS.blue)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(ratio('#ffffff', THEME_COLORS.red)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(ratio(THEME_COLORS.gray, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
  });
});

describe('state chips (StateChip) in their one colour', () => {
  it.each(
    Object.entries(STATE_LOOKS).flatMap(([kind, looks]) =>
      Object.entries(looks).map(([key, look]) => [`${kind} ${key}`, look.color] as const),
    ),
  )('%s: its name reads at 4.5:1 on its colour', (_name, color) =>
    expect(ratio(textOn(color), color)).toBeGreaterThanOrEqual(AA_TEXT),
  );
});

describe('chart palettes as drawn reach 3:1 against the card (graphics, WCAG AA)', () => {
  const palettes: Record<string, readonly string[]> = {
    catalogue: CHART_PALETTE,
    'last access': LOGGED_TIME_COLORS,
    progress: Object.values(PROGRESS_COLORS),
    ...Object.fromEntries(
      Object.entries(STATE_LOOKS).map(([kind, looks]) => [
        kind,
        Object.values(looks).map((l) => l.color),
      ]),
    ),
  };
  it.each(Object.entries(palettes))('%s', (_name, colors) => {
    const drawn = withReadableColors({
      labels: colors.map((_, i) => `L${i}`),
      datasets: [{ data: colors.map(() => 1), backgroundColor: [...colors] }],
    });
    const paper = buildTheme('es').palette.background.paper;
    for (const c of drawn.datasets[0]!.backgroundColor)
      expect(ratio(c, paper), c).toBeGreaterThanOrEqual(AA_NON_TEXT);
    // The colours stay distinct from one another.
    expect(new Set(drawn.datasets[0]!.backgroundColor).size).toBe(new Set(colors).size);
  });
});
