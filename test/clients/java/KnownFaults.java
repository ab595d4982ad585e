// The Java client's side of the client faults of docs/clients.md: the same
// command line and summary as test/clients/rdkafka_known_faults.py.
//
//   java -cp 'test/clients/java/lib/*:test/clients/java/classes' KnownFaults BOOTSTRAP TOPIC
//        [--prefix P] [--batches B] [--per-batch M] [--partitions N] [--linger-ms L] [--gap S]
//        [--idempotence] [--client-id ID] [--timeout S]
//
// Produces B batches of M records (record i of batch b keyed "<P><b>-<i>", to
// partition i % N, acks=all), each batch handed to send() at once and the
// next without waiting for it (after --gap seconds), then flush(). With B > 1, batch.size holds M
// records, so that the batches are separate Produce requests in flight together. Prints ONE JSON line: delivered
// (key, partition, offset of every callback without an exception), failed
// (key and exception), undelivered, errors. Exits 0 when all were delivered.
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

public final class KnownFaults {
  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  public static void main(String[] argv) throws Exception {
    if (argv.length < 2) {
      System.err.println("usage: KnownFaults BOOTSTRAP TOPIC [options]");
      System.exit(2);
    }
    String bootstrap = argv[0], topic = argv[1], prefix = "m", clientId = "java-known-faults";
    int batches = 1, perBatch = 4, partitions = 1, lingerMs = 20;
    boolean idempotence = false;
    double timeoutS = 30, gapS = 0;
    for (int i = 2; i < argv.length; i++) {
      switch (argv[i]) {
        case "--prefix" -> prefix = argv[++i];
        case "--batches" -> batches = Integer.parseInt(argv[++i]);
        case "--per-batch" -> perBatch = Integer.parseInt(argv[++i]);
        case "--partitions" -> partitions = Integer.parseInt(argv[++i]);
        case "--linger-ms" -> lingerMs = Integer.parseInt(argv[++i]);
        case "--gap" -> gapS = Double.parseDouble(argv[++i]);
        case "--idempotence" -> idempotence = true;
        case "--client-id" -> clientId = argv[++i];
        case "--timeout" -> timeoutS = Double.parseDouble(argv[++i]);
        default -> {
          System.err.println("unknown option " + argv[i]);
          System.exit(2);
        }
      }
    }
    int timeoutMs = (int) (timeoutS * 1000);
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    // Set either way: the Java client's default is true since 3.0.
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(idempotence));
    props.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(lingerMs));
    props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "50");
    props.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, "50");
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(6000, timeoutMs - 2000)));
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(Math.max(6000, timeoutMs - 2000)));
    if (batches > 1) {
      // One batch per --per-batch records, as librdkafka's batch.num.messages makes them: room for the
      // 61-byte batch header and perBatch records of ~12 bytes (a 4-character key, a 1-byte value), not one more.
      props.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(61 + perBatch * 12 + 4));
    }
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());

    List<String> delivered = new ArrayList<>(), failed = new ArrayList<>(), errors = new ArrayList<>();
    int total = batches * perBatch;
    CountDownLatch done = new CountDownLatch(total);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
      for (int b = 0; b < batches; b++) {
        for (int i = 0; i < perBatch; i++) {
          String key = prefix + b + "-" + i;
          producer.send(new ProducerRecord<>(topic, i % partitions, key, "v"), (md, e) -> {
            synchronized (delivered) {
              if (e != null) failed.add("{\"key\":" + quote(key) + ",\"error\":" + quote(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}");
              else delivered.add("{\"key\":" + quote(key) + ",\"partition\":" + md.partition() + ",\"offset\":" + md.offset() + "}");
            }
            done.countDown();
          });
        }
        if (gapS > 0) Thread.sleep((long) (gapS * 1000));
      }
      producer.flush();
      if (!done.await(timeoutMs, TimeUnit.MILLISECONDS)) errors.add(quote("timed out"));
      producer.close(Duration.ofSeconds(5));
    } catch (Exception e) {
      errors.add(quote(e.getClass().getSimpleName() + ": " + e.getMessage()));
    }
    long undelivered = done.getCount();
    if (!failed.isEmpty() || undelivered > 0) errors.add(quote(failed.size() + " callbacks with an exception, " + undelivered + " records neither delivered nor failed"));
    synchronized (delivered) {
      System.out.println("{\"ok\":" + errors.isEmpty() + ",\"client\":\"kafka-clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion() + "\""
          + ",\"delivered\":[" + String.join(",", delivered) + "],\"failed\":[" + String.join(",", failed) + "]"
          + ",\"undelivered\":" + undelivered + ",\"errors\":[" + String.join(",", errors) + "]}");
    }
    System.exit(errors.isEmpty() ? 0 : 1);
  }
}
