import { chileDateTime, formatNumber, formatPercent, type ChartData } from '@sigaf/contract';
import PDFDocument from 'pdfkit';

/** Colours of the product (docs/development/domain.md#constants). */
const BLUE = '#006C8D';
const GRAY = '#404040';
const LIGHT = '#EEF5F8';

/** A state written in its colour's mark (STATE_LOOKS) with its name beside it. */
export interface PdfState {
  text: string;
  colour: string | undefined;
}
export type PdfCell = string | number | null | undefined | PdfState;
const isState = (c: PdfCell): c is PdfState => typeof c === 'object' && c !== null;
/** Room a state's mark takes before its name. */
const MARK = 10;

/** A figure as the screens write it in Spanish: "41,7 %" for a percentage, "12.345" for a count. */
const figure = (v: number, suffix = '') =>
  suffix === '%' ? formatPercent(v, 'es') : `${formatNumber(v, 'es')}${suffix}`;
const cellText = (c: PdfCell) =>
  c === null || c === undefined
    ? ''
    : typeof c === 'number'
      ? formatNumber(c, 'es')
      : isState(c)
        ? c.text
        : c;

/**
 * A report as a PDF (A4): title band, figure cards, tables and charts drawn as horizontal bars
 * (stacked for several datasets), page breaks and "Página n de m" footers. Standard PDF fonts
 * (WinAnsi) carry every Spanish letter.
 */
export class PdfReport {
  private readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;

  constructor(title: string, subtitle: string) {
    this.doc = new PDFDocument({
      size: 'A4',
      margin: 40,
      bufferPages: true,
      info: { Title: title, Author: 'SIGAF', Subject: subtitle },
      lang: 'es-CL',
    });
    this.doc.on('data', (c: Buffer) => this.chunks.push(c));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
    const { doc } = this;
    doc.rect(0, 0, doc.page.width, 70).fill(BLUE);
    doc
      .fillColor('white')
      .font('Helvetica-Bold')
      .fontSize(16)
      .text(title, 40, 18, { width: this.width });
    doc.font('Helvetica').fontSize(10).text(subtitle, 40, 42, { width: this.width });
    doc
      .fillColor(GRAY)
      .fontSize(8)
      .text(`Generado el ${chileDateTime(new Date())}`, 40, 80, {
        width: this.width,
        align: 'right',
      });
    doc.y = 96;
  }

  private get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get left() {
    return this.doc.page.margins.left;
  }

  /** Starts a new page when less than `height` points are left. */
  private room(height: number) {
    if (this.doc.y + height > this.doc.page.height - this.doc.page.margins.bottom - 20)
      this.doc.addPage();
  }

  heading(text: string): this {
    this.room(40);
    this.doc.moveDown(0.5);
    this.doc
      .fillColor(BLUE)
      .font('Helvetica-Bold')
      .fontSize(13)
      .text(text, this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.3);
    return this;
  }

  paragraph(text: string): this {
    this.room(20);
    this.doc
      .fillColor(GRAY)
      .font('Helvetica')
      .fontSize(10)
      .text(text, this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.3);
    return this;
  }

  /** A row of figure cards: label above, value below. */
  /** Count cards, each with its figure's colour (FIGURE_COLOURS; the brand's by default). */
  cards(items: Array<[label: string, value: number | string, colour?: string]>): this {
    const gap = 8;
    const w = (this.width - gap * (items.length - 1)) / items.length;
    const h = 48;
    this.room(h + 10);
    const y = this.doc.y;
    items.forEach(([label, value, colour], i) => {
      const x = this.left + i * (w + gap);
      this.doc.rect(x, y, w, h).fill(LIGHT);
      this.doc.rect(x, y, 4, h).fill(colour ?? BLUE);
      this.doc
        .fillColor(GRAY)
        .font('Helvetica')
        .fontSize(9)
        .text(label, x + 10, y + 7, { width: w - 14 });
      this.doc
        .fillColor('black')
        .font('Helvetica-Bold')
        .fontSize(16)
        .text(typeof value === 'number' ? figure(value) : value, x + 10, y + 24, { width: w - 14 });
    });
    this.doc.y = y + h + 10;
    this.doc.x = this.left;
    return this;
  }

  /** A chart drawn as horizontal bars: one row per label, datasets stacked, value at the end. */
  bars(title: string, chart: ChartData, suffix = ''): this {
    const labelW = 150;
    const valueW = 70;
    const barW = this.width - labelW - valueW - 10;
    const rowH = 16;
    this.room(40 + rowH * Math.min(chart.labels.length, 3));
    this.doc
      .fillColor('black')
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(title, this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.2);
    const totals = chart.labels.map((_, i) =>
      chart.datasets.reduce((s, d) => s + (d.data[i] ?? 0), 0),
    );
    if (chart.labels.length === 0 || totals.every((t) => t === 0)) {
      this.doc
        .fillColor(GRAY)
        .font('Helvetica-Oblique')
        .fontSize(9)
        .text('Sin datos', this.left, this.doc.y);
      this.doc.moveDown(0.5);
      return this;
    }
    const max = Math.max(...totals);
    if (chart.datasets.length > 1) {
      // Legend.
      let x = this.left;
      const y = this.doc.y;
      for (const d of chart.datasets) {
        this.doc.rect(x, y + 2, 8, 8).fill(d.backgroundColor[0] ?? GRAY);
        const label = d.label ?? '';
        this.doc
          .fillColor(GRAY)
          .font('Helvetica')
          .fontSize(8)
          .text(label, x + 11, y + 2, { lineBreak: false });
        x += 11 + this.doc.widthOfString(label) + 14;
      }
      this.doc.y = y + 14;
    }
    chart.labels.forEach((label, i) => {
      this.room(rowH);
      const y = this.doc.y;
      this.doc
        .fillColor(GRAY)
        .font('Helvetica')
        .fontSize(8)
        .text(label, this.left, y + 3, {
          width: labelW - 6,
          height: rowH,
          ellipsis: true,
          lineBreak: false,
        });
      let x = this.left + labelW;
      chart.datasets.forEach((d) => {
        const v = d.data[i] ?? 0;
        const w = max > 0 ? (barW * v) / max : 0;
        if (w > 0)
          this.doc
            .rect(x, y + 2, w, rowH - 4)
            .fill(d.backgroundColor[i] ?? d.backgroundColor[0] ?? BLUE);
        x += w;
      });
      const value =
        chart.datasets.length > 1
          ? chart.datasets.map((d) => figure(d.data[i] ?? 0, suffix)).join(' / ')
          : figure(totals[i]!, suffix);
      this.doc
        .fillColor('black')
        .font('Helvetica')
        .fontSize(8)
        .text(value, x + 4, y + 3, { lineBreak: false });
      this.doc.y = y + rowH;
    });
    this.doc.x = this.left;
    this.doc.moveDown(0.6);
    return this;
  }

  /** A table with a coloured header, repeated on each new page; `widths` are fractions of the page width. */
  table(header: string[], rows: PdfCell[][], widths?: number[]): this {
    const fr = widths ?? header.map(() => 1 / header.length);
    const cols = fr.map((f) => f * this.width);
    const pad = 3;
    const drawHeader = () => {
      this.doc.font('Helvetica-Bold').fontSize(8);
      const h =
        Math.max(
          ...header.map((t, i) => this.doc.heightOfString(t, { width: cols[i]! - 2 * pad })),
        ) +
        2 * pad;
      this.room(h + 14);
      const y = this.doc.y;
      this.doc.rect(this.left, y, this.width, h).fill(BLUE);
      let x = this.left;
      header.forEach((t, i) => {
        this.doc.fillColor('white').text(t, x + pad, y + pad, { width: cols[i]! - 2 * pad });
        x += cols[i]!;
      });
      this.doc.y = y + h;
    };
    drawHeader();
    if (rows.length === 0) {
      this.doc
        .fillColor(GRAY)
        .font('Helvetica-Oblique')
        .fontSize(9)
        .text('Sin datos', this.left + pad, this.doc.y + pad);
      this.doc.moveDown(0.5);
      return this;
    }
    rows.forEach((row, r) => {
      this.doc.font('Helvetica').fontSize(8);
      const texts = row.map(cellText);
      const inner = (i: number) => cols[i]! - 2 * pad - (isState(row[i]) ? MARK : 0);
      const h =
        Math.max(...texts.map((t, i) => this.doc.heightOfString(t || ' ', { width: inner(i) }))) +
        2 * pad;
      if (this.doc.y + h > this.doc.page.height - this.doc.page.margins.bottom - 20) {
        this.doc.addPage();
        drawHeader();
        this.doc.font('Helvetica').fontSize(8);
      }
      const y = this.doc.y;
      if (r % 2 === 1) this.doc.rect(this.left, y, this.width, h).fill(LIGHT);
      let x = this.left;
      texts.forEach((t, i) => {
        const cell = row[i];
        const mark = isState(cell) && cell.colour !== undefined;
        if (mark) this.doc.circle(x + pad + 3.5, y + pad + 4.5, 3.5).fill(cell.colour!);
        this.doc.fillColor('black').text(t, x + pad + (isState(cell) ? MARK : 0), y + pad, {
          width: inner(i),
        });
        x += cols[i]!;
      });
      this.doc.y = y + h;
    });
    this.doc.x = this.left;
    this.doc.moveDown(0.6);
    return this;
  }

  /** Numbers the pages and returns the file. */
  async finish(): Promise<Buffer> {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const bottom = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      this.doc
        .fillColor(GRAY)
        .font('Helvetica')
        .fontSize(8)
        .text(`SIGAF · Página ${i + 1} de ${range.count}`, this.left, this.doc.page.height - 28, {
          width: this.width,
          align: 'center',
          lineBreak: false,
        });
      this.doc.page.margins.bottom = bottom;
    }
    this.doc.end();
    return this.done;
  }
}
