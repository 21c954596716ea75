/** Test helpers: a real OpenTelemetry SDK tracer and meter that keep what they record in memory. */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type HistogramMetricData, type MetricData } from '@opentelemetry/sdk-metrics';
import type { Meter, Tracer } from '@opentelemetry/api';

/** A reader collected by hand (`collect()`), never on a timer. */
class ManualReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }

  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Recorded {
  readonly tracer: Tracer;
  readonly meter: Meter;
  spans(): ReadableSpan[];
  metrics(): Promise<MetricData[]>;
  histogram(name: string): Promise<HistogramMetricData | undefined>;
}

export function recorder(name = 'test'): Recorded {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(name);
  const reader = new ManualReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter(name);
  const collect = async (): Promise<MetricData[]> => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  };
  return {
    tracer,
    meter,
    spans: () => exporter.getFinishedSpans(),
    metrics: collect,
    histogram: async (metric) => (await collect()).find((data) => data.descriptor.name === metric) as HistogramMetricData | undefined,
  };
}
