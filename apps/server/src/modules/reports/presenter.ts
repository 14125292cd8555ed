import type { ChartData, DailyTicketCard, OperatorDayRow } from '@sigaf/contract';

/**
 * The daily ticket report as the original client reads it (docs/development/original-api.md#reports), over the
 * same figures our client reads: the original's names are added beside ours.
 */

/** `_data` of data-card: the original reads `newTicket`, `total`, `open`, `close`. */
export const dayCardAnswer = (card: DailyTicketCard) => ({
  ...card,
  newTicket: card.created,
  close: card.closed,
});

/** `_data` of table-operator: the original reads `table[].{operator, tickets, close, attemps}` (its spelling) and `chartData`. */
export const operatorTableAnswer = ({
  table,
  chartData,
}: {
  table: OperatorDayRow[];
  chartData: ChartData;
}) => ({
  table: table.map((row) => ({ ...row, close: row.closed, attemps: row.attempts })),
  chartData,
});
