export { ChartCard, type ChartCardProps, type ChartKind } from './ChartCard';
export { CountCard, type CountCardProps } from './CountCard';
export { useChart } from './useChart';
export { isEmptyChart } from './chartModel';
export { PathChart, type PathChartProps } from './PathChart';
