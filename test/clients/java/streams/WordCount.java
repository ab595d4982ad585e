// A Kafka Streams application as teams write them, for
// test/e2e/kafka-streams.test.ts: words in, a count per word out, exactly
// once (processing.guarantee=exactly_once_v2). groupBy re-keys the stream,
// so Streams creates a repartition topic; count() keeps its store in memory
// and backs it with a changelog topic. Caching is off and commits are every
// 100 ms, so every input record gives one output record: a word seen n times
// has the counts 1..n in the output, each once, in order, when read
// read_committed.
//
//   java -cp 'lib/*:classes' WordCount --bootstrap HOST:PORT --input T --output T --app-id ID
//        [--state-dir DIR] [--timeout S]
//
// Prints one JSON line per state change and per uncaught exception while it
// runs, and a summary line when it stops: when stdin closes (the test is
// done), or after --timeout seconds. A thread that dies of an exception is
// replaced, as an application that keeps running would do, and the exception
// is reported.
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

public class WordCount {
  private static final List<String> errors = new ArrayList<>();
  private static final List<String> states = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    String bootstrap = null, input = null, output = null, appId = null, stateDir = null;
    int timeoutS = 60;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--bootstrap": bootstrap = args[i + 1]; break;
        case "--input": input = args[i + 1]; break;
        case "--output": output = args[i + 1]; break;
        case "--app-id": appId = args[i + 1]; break;
        case "--state-dir": stateDir = args[i + 1]; break;
        case "--timeout": timeoutS = Integer.parseInt(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (bootstrap == null || input == null || output == null || appId == null) throw new IllegalArgumentException("--bootstrap, --input, --output and --app-id are required");

    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    // Purge what was processed of the repartition topic at every commit (DeleteRecords), not every 30 s.
    p.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, 100);
    // The cluster's brokers: internal topics get the broker's default replication.
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, -1);
    if (stateDir != null) p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
    // Fail fast enough for a test: the defaults wait minutes on a broker that went away.
    p.put(StreamsConfig.producerPrefix("delivery.timeout.ms"), 30000);
    p.put(StreamsConfig.producerPrefix("request.timeout.ms"), 10000);
    p.put(StreamsConfig.producerPrefix("transaction.timeout.ms"), 10000);
    p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 10000);
    p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 500);

    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
        .map((key, word) -> KeyValue.pair(word, word))
        .groupByKey(Grouped.with("by-word", Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long>as(Stores.inMemoryKeyValueStore("counts")).withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
        .toStream()
        .to(output, Produced.with(Serdes.String(), Serdes.Long()));

    KafkaStreams streams = new KafkaStreams(builder.build(), p);
    CountDownLatch done = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      synchronized (states) {
        states.add(now.name());
      }
      line("{\"state\":\"" + now + "\",\"from\":\"" + before + "\"}");
      if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) done.countDown();
      if (now == KafkaStreams.State.NOT_RUNNING) stopped.countDown();
    });
    streams.setUncaughtExceptionHandler(e -> {
      String what = describe(e);
      synchronized (errors) {
        errors.add(what);
      }
      line("{\"uncaught\":" + json(what) + "}");
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.start();

    Thread stdinWatch = new Thread(() -> {
      try {
        InputStream in = System.in;
        while (in.read() >= 0) {
          // The test closes stdin when it has read what it needs.
        }
      } catch (Exception ignored) {
        // Closed either way.
      }
      done.countDown();
    });
    stdinWatch.setDaemon(true);
    stdinWatch.start();

    boolean timedOut = !done.await(timeoutS, TimeUnit.SECONDS);
    if (timedOut) errors.add("timed out after " + timeoutS + " s");
    if (!streams.close(Duration.ofSeconds(15))) errors.add("close() did not finish within 15 s");
    // close() can return before the listener hears NOT_RUNNING: wait for it, so the summary is the last line.
    stopped.await(5, TimeUnit.SECONDS);
    StringBuilder s = new StringBuilder("{\"ok\":").append(errors.isEmpty()).append(",\"errors\":[");
    synchronized (errors) {
      for (int i = 0; i < errors.size(); i++) s.append(i > 0 ? "," : "").append(json(errors.get(i)));
    }
    s.append("],\"states\":[");
    synchronized (states) {
      for (int i = 0; i < states.size(); i++) s.append(i > 0 ? "," : "").append(json(states.get(i)));
    }
    s.append("]}");
    line(s.toString());
    System.exit(0);
  }

  private static String describe(Throwable e) {
    StringBuilder s = new StringBuilder(e.toString());
    for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) s.append(" <- ").append(c);
    return s.toString();
  }

  private static synchronized void line(String json) {
    System.out.println(json);
    System.out.flush();
  }

  private static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
