// The Java share-group (KIP-932) driver: KafkaShareConsumer members of one
// share group read a topic until every record was settled, and report every
// delivery, so that a test sees what the application saw: each record's
// deliveries, who got it, and its delivery count.
//
//   java -cp 'test/clients/java/compat/lib/*:test/clients/java/share/classes' Share BOOTSTRAP TOPIC
//        [--group G] [--members M] [--produce N] [--ack implicit|explicit]
//        [--poison VALUE] [--on-poison accept|release|reject]
//        [--config name=value]... [--distinct N] [--idle-ms MS] [--dedup] [--timeout S]
//
// --produce writes N records (value v-<i>, key k-<i>) before the members
// start. --config sets a group config with Admin#incrementalAlterConfigs on
// the GROUP resource (share.auto.offset.reset=earliest, so that records
// produced before the first member are read). The members stop once N
// distinct values (--distinct, default --produce) were read and nothing new
// came for --idle-ms, or at the timeout. A record whose value is --poison
// makes the "application" fail: explicit mode then acknowledges it as
// --on-poison says (release: the retry loop that never ends on its own;
// reject: the fix), every other record ACCEPT; implicit mode accepts
// everything on the next poll, as Kafka's does. Each record processed is an
// effect (its value); --dedup skips a record already processed (by partition
// and offset), as an idempotent application does. One JSON line on stdout:
//   {"ok":..,"deliveries":[[member,partition,offset,value,deliveryCount],..],"effects":[value,..],
//    "ackFailures":[what commitSync reported failed,..],"errors":[..]}
// Exit 0 when it went through, 1 when a step failed, 2 on a timeout or usage error.
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class Share {
  record Delivery(String member, int partition, long offset, String value, int deliveryCount) {}

  String bootstrap, topic, group, ack = "implicit", poison, onPoison = "reject";
  int members = 1, produce = 0, distinct = -1;
  long idleMs = 1000;
  double timeoutS = 40;
  final Map<String, String> configs = new HashMap<>();
  final List<Delivery> deliveries = new ArrayList<>();
  final Set<String> seen = new HashSet<>();
  // The application's effects: what it did for each record it processed; with --dedup it skips a
  // record it already processed (by partition and offset), as an idempotent application does.
  boolean dedup = false;
  final Set<String> processed = new HashSet<>();
  final List<String> effects = new ArrayList<>();
  /** What commitSync reported as failed acknowledgements (explicit mode). */
  final List<String> ackFailures = new ArrayList<>();
  final AtomicLong lastNew = new AtomicLong(System.currentTimeMillis());
  final AtomicBoolean stop = new AtomicBoolean(false);
  final List<String> errors = new ArrayList<>();

  static String quote(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  void setConfigs() throws Exception {
    if (configs.isEmpty()) return;
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      Collection<AlterConfigOp> ops = new ArrayList<>();
      for (var e : configs.entrySet()) ops.add(new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET));
      admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all().get();
    }
  }

  void produceRecords() throws Exception {
    if (produce == 0) return;
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < produce; i++) producer.send(new ProducerRecord<>(topic, "k-" + i, "v-" + i));
      producer.flush();
    }
  }

  final class Member implements Runnable {
    final String name;
    volatile String error;

    Member(String name) {
      this.name = name;
    }

    public void run() {
      Properties props = new Properties();
      props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      props.put(ConsumerConfig.CLIENT_ID_CONFIG, "share-" + name);
      props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
      props.put("share.acknowledgement.mode", ack);
      try (KafkaShareConsumer<String, String> c = new KafkaShareConsumer<>(props)) {
        c.subscribe(List.of(topic));
        while (!stop.get()) {
          var polled = c.poll(Duration.ofMillis(100));
          for (ConsumerRecord<String, String> r : polled) {
            synchronized (Share.this) {
              deliveries.add(new Delivery(name, r.partition(), r.offset(), r.value(), r.deliveryCount().map(Short::intValue).orElse(-1)));
              if (seen.add(r.value())) lastNew.set(System.currentTimeMillis());
              if (!dedup || processed.add(r.partition() + ":" + r.offset())) effects.add(r.value());
            }
            boolean bad = poison != null && poison.equals(r.value());
            if (ack.equals("explicit")) {
              AcknowledgeType type = AcknowledgeType.ACCEPT;
              if (bad) type = switch (onPoison) {
                case "release" -> AcknowledgeType.RELEASE;
                case "reject" -> AcknowledgeType.REJECT;
                default -> AcknowledgeType.ACCEPT;
              };
              c.acknowledge(r, type);
            }
          }
          if (ack.equals("explicit")) {
            for (var e : c.commitSync(Duration.ofSeconds(10)).entrySet()) {
              if (e.getValue().isPresent()) {
                synchronized (Share.this) {
                  ackFailures.add(e.getKey() + ": " + e.getValue().get());
                }
              }
            }
          }
        }
        c.commitSync(Duration.ofSeconds(10));
      } catch (Exception e) {
        error = e.toString();
      }
    }
  }

  void run() throws Exception {
    setConfigs();
    produceRecords();
    int want = distinct >= 0 ? distinct : produce;
    List<Member> ms = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      Member m = new Member(String.valueOf((char) ('a' + i)));
      Thread t = new Thread(m, "member-" + m.name);
      t.setDaemon(true);
      t.start();
      ms.add(m);
      threads.add(t);
    }
    long deadline = System.currentTimeMillis() + (long) (timeoutS * 1000);
    try {
      while (true) {
        for (Member m : ms) if (m.error != null) throw new RuntimeException("member " + m.name + ": " + m.error);
        int n;
        synchronized (this) {
          n = seen.size();
        }
        if (n >= want && System.currentTimeMillis() - lastNew.get() >= idleMs) break;
        if (System.currentTimeMillis() > deadline) throw new java.util.concurrent.TimeoutException("timed out with " + n + " of " + want + " distinct values read");
        Thread.sleep(50);
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) t.join(15_000);
    }
    for (Member m : ms) if (m.error != null) throw new RuntimeException("member " + m.name + ": " + m.error);
  }

  String summary(boolean ok) {
    StringBuilder d = new StringBuilder("[");
    synchronized (this) {
      for (Delivery x : deliveries) {
        d.append(d.length() > 1 ? "," : "").append('[').append(quote(x.member)).append(',').append(x.partition).append(',').append(x.offset).append(',').append(quote(x.value)).append(',').append(x.deliveryCount).append(']');
      }
    }
    StringBuilder fx = new StringBuilder("[");
    synchronized (this) {
      for (String x : effects) fx.append(fx.length() > 1 ? "," : "").append(quote(x));
    }
    StringBuilder af = new StringBuilder("[");
    synchronized (this) {
      for (String x : ackFailures) af.append(af.length() > 1 ? "," : "").append(quote(x));
    }
    StringBuilder e = new StringBuilder("[");
    for (String x : errors) e.append(e.length() > 1 ? "," : "").append(quote(x));
    return "{\"ok\":" + ok + ",\"topic\":" + quote(topic) + ",\"group\":" + quote(group) + ",\"deliveries\":" + d.append(']') + ",\"effects\":" + fx.append(']') + ",\"ackFailures\":" + af.append(']') + ",\"errors\":" + e.append(']') + "}";
  }

  public static void main(String[] argv) {
    Share s = new Share();
    List<String> pos = new ArrayList<>();
    try {
      for (int i = 0; i < argv.length; i++) {
        switch (argv[i]) {
          case "--group" -> s.group = argv[++i];
          case "--members" -> s.members = Integer.parseInt(argv[++i]);
          case "--produce" -> s.produce = Integer.parseInt(argv[++i]);
          case "--ack" -> s.ack = argv[++i];
          case "--poison" -> s.poison = argv[++i];
          case "--on-poison" -> s.onPoison = argv[++i];
          case "--distinct" -> s.distinct = Integer.parseInt(argv[++i]);
          case "--idle-ms" -> s.idleMs = Long.parseLong(argv[++i]);
          case "--timeout" -> s.timeoutS = Double.parseDouble(argv[++i]);
          case "--dedup" -> s.dedup = true;
          case "--config" -> {
            String[] kv = argv[++i].split("=", 2);
            s.configs.put(kv[0], kv[1]);
          }
          default -> {
            if (argv[i].startsWith("-")) throw new IllegalArgumentException("unknown option " + argv[i]);
            pos.add(argv[i]);
          }
        }
      }
      if (pos.size() != 2) throw new IllegalArgumentException("two positional arguments");
      if (!s.ack.equals("implicit") && !s.ack.equals("explicit")) throw new IllegalArgumentException("--ack implicit|explicit");
    } catch (RuntimeException e) {
      System.err.println(e.getMessage() + "\nusage: Share BOOTSTRAP TOPIC [--group G] [--members M] [--produce N] [--ack implicit|explicit] [--poison V] [--on-poison accept|release|reject] [--config k=v]... [--distinct N] [--idle-ms MS] [--dedup] [--timeout S]");
      System.exit(2);
    }
    s.bootstrap = pos.get(0);
    s.topic = pos.get(1);
    if (s.group == null) s.group = s.topic + "-share";
    Thread guard = new Thread(() -> {
      try {
        Thread.sleep((long) ((s.timeoutS + 20) * 1000));
      } catch (InterruptedException e) {
        return;
      }
      System.out.println(s.summary(false).replace("\"errors\":[", "\"errors\":[\"hard timeout\","));
      System.out.flush();
      Runtime.getRuntime().halt(2);
    });
    guard.setDaemon(true);
    guard.start();
    int code = 0;
    try {
      s.run();
    } catch (java.util.concurrent.TimeoutException e) {
      s.errors.add(e.getMessage());
      code = 2;
    } catch (Exception e) {
      Throwable c = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      s.errors.add(c.toString());
      code = 1;
    }
    System.out.println(s.summary(code == 0));
    System.out.flush();
    Runtime.getRuntime().halt(code);
  }
}
