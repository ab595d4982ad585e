// The Java client's driver of the compatibility suite (test/compat/README.md):
// one scenario per run, one JSON summary line on stdout.
//
//   java -cp 'test/clients/java/compat/lib/*:test/clients/java/compat/classes' Compat BOOTSTRAP SCENARIO TOPIC
//        [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// kafka-clients from pom.xml (build.sh). The client negotiates versions with
// ApiVersions. Its producer is idempotent by default since 3.0: produce/fetch
// sets enable.idempotence=false, as the other drivers send plain acks=all
// there. Read-backs assign() every partition without a group.id (the Java
// consumer allows that: no group request at all). Exit 0 when the scenario
// went through, 1 when a step failed, 2 on a timeout or a usage error.
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class Compat {
  static final class Failure extends RuntimeException {
    Failure(String msg) {
      super(msg);
    }
  }

  record Message(String key, String value, int partition) {}

  // [partition, offset, value], as every driver reports a record it read.
  record Read(int partition, long offset, String value) {}

  String bootstrap, scenario, topic, group, txnId;
  int n = 200, partitions = 1;
  double timeoutS = 40;
  long deadline;
  final StringBuilder out = new StringBuilder();
  final List<String> errors = new ArrayList<>();

  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String reads(List<Read> rs) {
    StringBuilder b = new StringBuilder("[");
    for (Read r : rs) b.append(b.length() > 1 ? "," : "").append('[').append(r.partition).append(',').append(r.offset).append(',').append(quote(r.value)).append(']');
    return b.append(']').toString();
  }

  static String ints(Collection<Integer> xs) {
    StringBuilder b = new StringBuilder("[");
    for (int x : xs) b.append(b.length() > 1 ? "," : "").append(x);
    return b.append(']').toString();
  }

  void field(String name, String json) {
    out.append(',').append(quote(name)).append(':').append(json);
  }

  long left(String what) {
    long ms = deadline - System.currentTimeMillis();
    if (ms <= 0) throw new Failure("timed out during " + what);
    return ms;
  }

  List<Message> messagesFor(String tag) {
    List<Message> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) ms.add(new Message("k" + i, String.format("%s-%06d", tag, i), i % partitions));
    return ms;
  }

  Properties common(String suffix) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "compat-java-" + scenario + suffix);
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
    p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
    p.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "50");
    return p;
  }

  Properties producerProps(boolean idempotent) {
    Properties p = common("-producer");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(idempotent));
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return p;
  }

  Properties consumerProps(String suffix) {
    Properties p = common(suffix);
    p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "100");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return p;
  }

  void metadata() throws Exception {
    try (Admin admin = Admin.create(common(""))) {
      DescribeClusterResult cluster = admin.describeCluster();
      Set<Integer> ids = new TreeSet<>();
      for (Node node : cluster.nodes().get(left("DescribeCluster"), TimeUnit.MILLISECONDS)) ids.add(node.id());
      Node controller = cluster.controller().get(left("DescribeCluster"), TimeUnit.MILLISECONDS);
      TopicDescription t = admin.describeTopics(List.of(topic)).allTopicNames().get(left("DescribeTopics"), TimeUnit.MILLISECONDS).get(topic);
      StringBuilder parts = new StringBuilder("[");
      for (TopicPartitionInfo p : t.partitions()) {
        parts.append(parts.length() > 1 ? "," : "").append("{\"id\":").append(p.partition()).append(",\"leader\":").append(p.leader() == null ? -1 : p.leader().id()).append('}');
      }
      field("brokers", ints(ids));
      field("controller", String.valueOf(controller == null ? -1 : controller.id()));
      field("partitions", parts.append(']').toString());
    }
  }

  /** Sends msgs, waiting for every acknowledgement chunk by chunk (several batches per partition). */
  int produce(KafkaProducer<String, String> p, List<Message> msgs, int chunk) throws Exception {
    for (int i = 0; i < msgs.size(); i += chunk) {
      List<Future<RecordMetadata>> acks = new ArrayList<>();
      for (Message m : msgs.subList(i, Math.min(i + chunk, msgs.size()))) acks.add(p.send(new ProducerRecord<>(topic, m.partition, m.key, m.value)));
      p.flush();
      for (Future<RecordMetadata> f : acks) f.get(left("produce"), TimeUnit.MILLISECONDS);
    }
    return msgs.size();
  }

  /** No group: assign() every partition from the beginning and read until done. */
  List<Read> readBack(String isolation, Predicate<List<Read>> done) {
    Properties props = consumerProps("-reader");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    List<Read> read = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int p = 0; p < partitions; p++) tps.add(new TopicPartition(topic, p));
      c.assign(tps);
      c.seekToBeginning(tps);
      while (!done.test(read)) {
        left("read-back (" + read.size() + " records so far)");
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) read.add(new Read(r.partition(), r.offset(), r.value()));
      }
    }
    return read;
  }

  void produceFetch(boolean idempotent) throws Exception {
    List<Message> msgs = messagesFor(scenario);
    try (KafkaProducer<String, String> p = new KafkaProducer<>(producerProps(idempotent))) {
      field("produced", String.valueOf(produce(p, msgs, 50)));
    }
    field("read", reads(readBack("read_uncommitted", r -> r.size() >= msgs.size())));
  }

  /** One group member, polled from its own thread (a KafkaConsumer is not thread-safe). */
  final class Member implements Runnable, ConsumerRebalanceListener {
    final String name;
    final String protocol;
    final AtomicBoolean stop = new AtomicBoolean();
    final List<Read> read = new ArrayList<>();
    final Set<Integer> assigned = new TreeSet<>();
    volatile boolean committed;
    volatile String error;

    Member(String name, String protocol) {
      this.name = name;
      this.protocol = protocol;
    }

    @Override
    public synchronized void onPartitionsAssigned(Collection<TopicPartition> tps) {
      for (TopicPartition tp : tps) if (tp.topic().equals(topic)) assigned.add(tp.partition());
    }

    @Override
    public synchronized void onPartitionsRevoked(Collection<TopicPartition> tps) {
      for (TopicPartition tp : tps) assigned.remove(tp.partition());
    }

    synchronized List<Integer> assigned() {
      return new ArrayList<>(assigned);
    }

    synchronized int readCount() {
      return read.size();
    }

    synchronized String report() {
      return "{\"name\":" + quote(name) + ",\"assigned\":" + ints(assigned) + ",\"read\":" + reads(read) + "}";
    }

    @Override
    public void run() {
      Properties props = consumerProps("-group-" + name);
      props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
      props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
      if (protocol.equals("classic")) {
        // The consumer protocol refuses these: its timeouts are the broker's.
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "500");
      }
      props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "10000");
      try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
        c.subscribe(List.of(topic), this);
        while (!stop.get()) {
          ConsumerRecords<String, String> polled = c.poll(Duration.ofMillis(100));
          // Both members stop once everything was read, and the first to close makes the other
          // rebalance: a poll in flight then returns, from offsets not yet committed, records
          // already read. That is this driver's shutdown, not the broker's delivery: drop them.
          if (stop.get()) break;
          for (ConsumerRecord<String, String> r : polled) {
            synchronized (this) {
              read.add(new Read(r.partition(), r.offset(), r.value()));
            }
          }
        }
        // Commit what this member read (the suite checks the committed offsets on the broker); close() leaves the group.
        c.commitSync(Duration.ofSeconds(10));
        committed = true;
        // Both commit before either leaves: the first to leave makes the other rebalance, which must not come before its commit.
        bothCommitted.countDown();
        bothCommitted.await(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        error = e.toString();
      }
    }
  }

  void waitFor(String what, java.util.function.BooleanSupplier ok, List<Member> members) throws InterruptedException {
    while (!ok.getAsBoolean()) {
      for (Member m : members) if (m.error != null) throw new Failure("member " + m.name + ": " + m.error);
      left(what);
      Thread.sleep(50);
    }
  }

  /** Counted down by each group member once it has committed (see Member#run). */
  final java.util.concurrent.CountDownLatch bothCommitted = new java.util.concurrent.CountDownLatch(2);

  void group(String protocol) throws Exception {
    List<Member> members = List.of(new Member("a", protocol), new Member("b", protocol));
    List<Thread> threads = new ArrayList<>();
    for (Member m : members) {
      Thread t = new Thread(m, "member-" + m.name);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    try {
      waitFor("both members to be assigned", () -> {
        List<Integer> a = members.get(0).assigned(), b = members.get(1).assigned();
        Set<Integer> all = new TreeSet<>(a);
        all.addAll(b);
        return !a.isEmpty() && !b.isEmpty() && all.size() == partitions && a.size() + b.size() == partitions;
      }, members);
      field("assignedBeforeProduce", "[" + ints(members.get(0).assigned()) + "," + ints(members.get(1).assigned()) + "]");
      List<Message> msgs = messagesFor(scenario);
      try (KafkaProducer<String, String> p = new KafkaProducer<>(producerProps(false))) {
        field("produced", String.valueOf(produce(p, msgs, msgs.size())));
      }
      waitFor("both members to read everything", () -> members.get(0).readCount() + members.get(1).readCount() >= msgs.size(), members);
    } finally {
      for (Member m : members) m.stop.set(true);
      for (Thread t : threads) t.join(Math.max(100, Math.min(15_000, deadline - System.currentTimeMillis())));
      field("members", "[" + members.get(0).report() + "," + members.get(1).report() + "]");
    }
    for (Member m : members) {
      if (m.error != null) throw new Failure("member " + m.name + ": " + m.error);
      if (!m.committed) throw new Failure("member " + m.name + " did not finish its commit in time");
    }
  }

  /**
   * KIP-932: the suite has set the group to read from the earliest; the
   * records are produced first, then two KafkaShareConsumers of share group
   * `group` (implicit acknowledgement: a poll accepts what the one before
   * returned) poll until every value was read; commitSync() sends the last
   * acknowledgements, close() leaves the group.
   */
  void shareGroup() throws Exception {
    List<Message> msgs = messagesFor(scenario);
    try (KafkaProducer<String, String> p = new KafkaProducer<>(producerProps(false))) {
      field("produced", String.valueOf(produce(p, msgs, msgs.size())));
    }
    AtomicBoolean stop = new AtomicBoolean(false);
    Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    List<List<Read>> reads = List.of(new ArrayList<>(), new ArrayList<>());
    String[] errors = new String[2];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      final int k = i;
      Thread t = new Thread(() -> {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "compat-java-share-" + (char) ('a' + k));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        try (org.apache.kafka.clients.consumer.KafkaShareConsumer<String, String> c = new org.apache.kafka.clients.consumer.KafkaShareConsumer<>(props)) {
          c.subscribe(List.of(topic));
          while (!stop.get()) {
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
              synchronized (reads) {
                reads.get(k).add(new Read(r.partition(), r.offset(), r.value()));
              }
              seen.add(r.value());
            }
          }
          c.commitSync(Duration.ofSeconds(10));
        } catch (Exception e) {
          errors[k] = e.toString();
        }
      }, "share-member-" + k);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    try {
      while (seen.size() < msgs.size()) {
        for (String e : errors) if (e != null) throw new Failure("share member: " + e);
        left("both share members to read everything (" + seen.size() + " values so far)");
        Thread.sleep(50);
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) t.join(Math.max(100, Math.min(15_000, deadline - System.currentTimeMillis())));
      synchronized (reads) {
        field("members", "[{\"name\":\"a\",\"read\":" + reads(reads.get(0)) + "},{\"name\":\"b\",\"read\":" + reads(reads.get(1)) + "}]");
      }
    }
    for (String e : errors) if (e != null) throw new Failure("share member: " + e);
  }

  void transactions() throws Exception {
    Properties props = producerProps(true);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId);
    props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "30000");
    try (KafkaProducer<String, String> p = new KafkaProducer<>(props)) {
      p.initTransactions();
      for (String tag : List.of("commit1", "abort", "commit2")) {
        p.beginTransaction();
        // Every record acknowledged before the end of the transaction, so that the aborted ones are in the log.
        produce(p, messagesFor(tag), n);
        if (tag.equals("abort")) p.abortTransaction();
        else p.commitTransaction();
      }
    }
    field("produced", "{\"committed\":" + 2 * n + ",\"aborted\":" + n + "}");
    // commit2 comes after every aborted record: once all of it is read, an aborted record would have shown.
    Set<String> want = new TreeSet<>();
    for (Message m : messagesFor("commit2")) want.add(m.value);
    field("read", reads(readBack("read_committed", r -> r.stream().filter(x -> want.contains(x.value)).count() >= want.size())));
  }

  /** The version kafka-clients reports of itself (the resource its AppInfoParser reads). */
  static String clientVersion() {
    Properties p = new Properties();
    try (var in = KafkaProducer.class.getClassLoader().getResourceAsStream("kafka/kafka-version.properties")) {
      if (in != null) p.load(in);
    } catch (java.io.IOException e) {
      // reported as unknown
    }
    return p.getProperty("version", "unknown");
  }

  String summary(boolean ok, List<String> errs, long started) {
    StringBuilder e = new StringBuilder("[");
    for (String x : errs) e.append(e.length() > 1 ? "," : "").append(quote(x));
    return "{\"ok\":" + ok + ",\"client\":" + quote("kafka-clients " + clientVersion()) + ",\"scenario\":" + quote(scenario) + ",\"topic\":" + quote(topic)
        + ",\"errors\":" + e.append(']') + ",\"elapsed_s\":" + (System.currentTimeMillis() - started) / 1000.0 + out + "}";
  }

  public static void main(String[] argv) {
    Compat d = new Compat();
    List<String> pos = new ArrayList<>();
    try {
      for (int i = 0; i < argv.length; i++) {
        switch (argv[i]) {
          case "-n" -> d.n = Integer.parseInt(argv[++i]);
          case "--partitions" -> d.partitions = Integer.parseInt(argv[++i]);
          case "--group" -> d.group = argv[++i];
          case "--txn-id" -> d.txnId = argv[++i];
          case "--timeout" -> d.timeoutS = Double.parseDouble(argv[++i]);
          default -> {
            if (argv[i].startsWith("-")) throw new IllegalArgumentException("unknown option " + argv[i]);
            pos.add(argv[i]);
          }
        }
      }
      if (pos.size() != 3 || d.n <= 0 || d.partitions <= 0 || d.timeoutS <= 0) throw new IllegalArgumentException("three positional arguments");
    } catch (RuntimeException e) {
      System.err.println(e.getMessage() + "\nusage: Compat BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]");
      System.exit(2);
    }
    d.bootstrap = pos.get(0);
    d.scenario = pos.get(1);
    d.topic = pos.get(2);
    if (d.group == null) d.group = d.topic + "-group";
    if (d.txnId == null) d.txnId = d.topic + "-txn";
    long started = System.currentTimeMillis();
    d.deadline = started + (long) (d.timeoutS * 1000);
    // A hung client must not outlive the suite: a summary of its own, then halt (no shutdown hooks).
    Thread guard = new Thread(() -> {
      try {
        Thread.sleep((long) ((d.timeoutS + 10) * 1000));
      } catch (InterruptedException e) {
        return;
      }
      System.out.println("{\"ok\":false,\"scenario\":" + quote(d.scenario) + ",\"topic\":" + quote(d.topic) + ",\"errors\":[\"hard timeout (" + (d.timeoutS + 10) + " s)\"]}");
      System.out.flush();
      Runtime.getRuntime().halt(2);
    });
    guard.setDaemon(true);
    guard.start();
    int code = 0;
    try {
      switch (d.scenario) {
        case "metadata" -> d.metadata();
        case "produce-fetch" -> d.produceFetch(false);
        case "idempotent" -> d.produceFetch(true);
        case "group" -> d.group("classic");
        // KIP-848: the broker assigns; kafkaesque does not serve ConsumerGroupHeartbeat yet (docs/unsupported.md).
        case "consumer-group" -> d.group("consumer");
        case "transactions" -> d.transactions();
        case "share-group" -> d.shareGroup();
        default -> throw new IllegalArgumentException("unknown scenario " + d.scenario);
      }
    } catch (IllegalArgumentException e) {
      d.errors.add(e.getMessage());
      code = 2;
    } catch (Failure e) {
      d.errors.add(e.getMessage());
      code = e.getMessage().contains("timed out") ? 2 : 1;
    } catch (Exception e) {
      Throwable c = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
      d.errors.add(c.toString());
      code = c instanceof org.apache.kafka.common.errors.TimeoutException ? 2 : 1;
    }
    System.out.println(d.summary(code == 0, d.errors, started));
    System.out.flush();
    // Client threads may linger: leave without waiting for them.
    Runtime.getRuntime().halt(code);
  }
}
