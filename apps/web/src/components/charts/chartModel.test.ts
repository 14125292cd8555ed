import type { ChartData } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import { isEmptyChart, perLabelColors, selection, toBarSeries, toPieItems } from './chartModel';

const byStatus: ChartData = {
  labels: ['Ana', 'Luis'],
  datasets: [
    { label: 'Abierto', data: [3, 1], backgroundColor: ['#5cb85c', '#5cb85c'] },
    { label: 'Cerrado', data: [0, 2], backgroundColor: ['#D32F2F', '#D32F2F'] },
  ],
};
const bySource: ChartData = {
  labels: ['Teléfono', 'Email'],
  datasets: [{ data: [4, 0], backgroundColor: ['#1E88E5', '#43A047'] }],
};

describe('chart model', () => {
  it('knows when there is nothing to draw', () => {
    expect(isEmptyChart(undefined)).toBe(true);
    expect(isEmptyChart({ labels: [], datasets: [] })).toBe(true);
    expect(
      isEmptyChart({ labels: ['a'], datasets: [{ data: [0], backgroundColor: ['#000'] }] }),
    ).toBe(true);
    expect(isEmptyChart(bySource)).toBe(false);
  });

  it('gives each slice its label, value and colour', () => {
    expect(toPieItems(bySource)).toEqual([
      { id: 0, label: 'Teléfono', value: 4, color: '#1E88E5' },
      { id: 1, label: 'Email', value: 0, color: '#43A047' },
    ]);
  });

  it('stacks the datasets of stacked kinds and keeps the dataset colour', () => {
    const stacked = toBarSeries(byStatus, 'horizontalBar');
    expect(stacked.map((s) => [s.id, s.label, s.color, s.stack, s.data])).toEqual([
      ['ds-0', 'Abierto', '#5cb85c', 'total', [3, 1]],
      ['ds-1', 'Cerrado', '#D32F2F', 'total', [0, 2]],
    ]);
    expect(toBarSeries(byStatus, 'bar').every((s) => s.stack === undefined)).toBe(true);
  });

  it('colours single-dataset bars per label only when the colours differ', () => {
    expect(perLabelColors(bySource)).toEqual(['#1E88E5', '#43A047']);
    expect(perLabelColors(byStatus)).toBeNull();
  });

  it('maps a click back to the label and the dataset label', () => {
    expect(selection(byStatus, 1, 'ds-1')).toEqual({ label: 'Luis', datasetLabel: 'Cerrado' });
    expect(selection(bySource, 0)).toEqual({ label: 'Teléfono' });
    expect(selection(bySource, 5)).toBeNull();
  });
});
