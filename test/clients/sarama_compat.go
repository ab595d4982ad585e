// sarama driver of the compatibility suite (test/compat/README.md): one
// scenario per run, one JSON summary line on stdout.
//
//	sarama_compat BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--timeout S]
//
// Built offline against Debian's packaged sources (golang-github-shopify-sarama-dev)
// in GOPATH mode; test/compat/clients.ts does:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o BIN -ldflags "-X main.saramaVersion=V" test/clients/sarama_compat.go
//
// Config.Version is sarama.MaxVersion: sarama does not negotiate versions, it
// sends what Config.Version implies, and its default (0.8.2) predates record
// batches, idempotence and consumer groups. sarama before 1.37 has no
// transactional producer: that scenario is refused (exit 2).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/Shopify/sarama"
)

// Set at build time from the Debian package's version.
var saramaVersion = "unknown"

type args struct {
	bootstrap  []string
	scenario   string
	topic      string
	n          int
	partitions int
	group      string
	timeout    time.Duration
}

type failure struct{ msg string }

func (f failure) Error() string { return f.msg }

func fail(format string, a ...interface{}) { panic(failure{fmt.Sprintf(format, a...)}) }

// record is [partition, offset, value], as every driver reports it.
type record [3]interface{}

type message struct {
	key, value string
	partition  int32
}

func messagesFor(tag string, n, partitions int) []message {
	out := make([]message, n)
	for i := range out {
		out[i] = message{fmt.Sprintf("k%d", i), fmt.Sprintf("%s-%06d", tag, i), int32(i % partitions)}
	}
	return out
}

func parse() args {
	fs := flag.NewFlagSet("sarama_compat", flag.ExitOnError)
	n := fs.Int("n", 200, "messages")
	partitions := fs.Int("partitions", 1, "partitions of TOPIC (the suite creates it)")
	group := fs.String("group", "", "consumer group (default TOPIC-group)")
	timeout := fs.Float64("timeout", 40, "seconds for the whole run")
	fs.String("txn-id", "", "unused: no transactions in this sarama")
	// Positional arguments first, options after (as the suite passes them).
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: sarama_compat BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--timeout S]")
		os.Exit(2)
	}
	if err := fs.Parse(os.Args[4:]); err != nil || *n <= 0 || *partitions <= 0 || *timeout <= 0 {
		os.Exit(2)
	}
	a := args{strings.Split(os.Args[1], ","), os.Args[2], os.Args[3], *n, *partitions, *group, time.Duration(*timeout * float64(time.Second))}
	if a.group == "" {
		a.group = a.topic + "-group"
	}
	return a
}

func config(a args, clientID string) *sarama.Config {
	c := sarama.NewConfig()
	c.Version = sarama.MaxVersion
	c.ClientID = clientID
	c.Net.DialTimeout = 10 * time.Second
	c.Net.ReadTimeout = 15 * time.Second
	c.Metadata.Retry.Backoff = 100 * time.Millisecond
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Return.Successes = true
	c.Producer.Partitioner = sarama.NewManualPartitioner
	c.Producer.Retry.Backoff = 100 * time.Millisecond
	c.Consumer.Return.Errors = true
	c.Consumer.MaxWaitTime = 100 * time.Millisecond
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	return c
}

func metadata(a args, out map[string]interface{}) {
	admin, err := sarama.NewClusterAdmin(a.bootstrap, config(a, "compat-sarama-metadata"))
	if err != nil {
		fail("cluster admin: %v", err)
	}
	defer admin.Close()
	brokers, controller, err := admin.DescribeCluster()
	if err != nil {
		fail("DescribeCluster: %v", err)
	}
	ids := []int{}
	for _, b := range brokers {
		ids = append(ids, int(b.ID()))
	}
	sort.Ints(ids)
	topics, err := admin.DescribeTopics([]string{a.topic})
	if err != nil {
		fail("DescribeTopics: %v", err)
	}
	if len(topics) != 1 || topics[0].Err != sarama.ErrNoError {
		fail("metadata for %s: %v", a.topic, topics)
	}
	parts := []map[string]int{}
	for _, p := range topics[0].Partitions {
		parts = append(parts, map[string]int{"id": int(p.ID), "leader": int(p.Leader)})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i]["id"] < parts[j]["id"] })
	out["brokers"], out["controller"], out["partitions"] = ids, controller, parts
}

// produce sends msgs in chunks of `chunk` with a SyncProducer (several batches per partition).
func produce(a args, msgs []message, idempotent bool, chunk int) int {
	c := config(a, "compat-sarama-producer")
	if idempotent {
		c.Producer.Idempotent = true
		c.Net.MaxOpenRequests = 1
		c.Producer.Retry.Max = 5
	}
	p, err := sarama.NewSyncProducer(a.bootstrap, c)
	if err != nil {
		fail("producer: %v", err)
	}
	defer p.Close()
	for i := 0; i < len(msgs); i += chunk {
		batch := []*sarama.ProducerMessage{}
		for _, m := range msgs[i:min(i+chunk, len(msgs))] {
			batch = append(batch, &sarama.ProducerMessage{Topic: a.topic, Partition: m.partition, Key: sarama.StringEncoder(m.key), Value: sarama.StringEncoder(m.value)})
		}
		if err := p.SendMessages(batch); err != nil {
			fail("send: %v", err)
		}
	}
	return len(msgs)
}

func min(x, y int) int {
	if x < y {
		return x
	}
	return y
}

// readBack reads every partition from the oldest offset (no group) until `want` records arrived.
func readBack(a args, want int, deadline time.Time) []record {
	c, err := sarama.NewConsumer(a.bootstrap, config(a, "compat-sarama-reader"))
	if err != nil {
		fail("consumer: %v", err)
	}
	defer c.Close()
	got := make(chan record, want)
	errs := make(chan error, a.partitions)
	for p := 0; p < a.partitions; p++ {
		pc, err := c.ConsumePartition(a.topic, int32(p), sarama.OffsetOldest)
		if err != nil {
			fail("ConsumePartition %d: %v", p, err)
		}
		defer pc.AsyncClose()
		go func() {
			for {
				select {
				case m, ok := <-pc.Messages():
					if !ok {
						return
					}
					got <- record{m.Partition, m.Offset, string(m.Value)}
				case e, ok := <-pc.Errors():
					if ok {
						errs <- e
					}
					return
				}
			}
		}()
	}
	read := []record{}
	for len(read) < want {
		select {
		case r := <-got:
			read = append(read, r)
		case e := <-errs:
			fail("consume: %v", e)
		case <-time.After(time.Until(deadline)):
			fail("timed out during read-back (%d records so far)", len(read))
		}
	}
	return read
}

func produceFetch(a args, out map[string]interface{}, deadline time.Time, idempotent bool) {
	msgs := messagesFor(a.scenario, a.n, a.partitions)
	out["produced"] = produce(a, msgs, idempotent, 50)
	out["read"] = readBack(a, len(msgs), deadline)
}

// member is one consumer-group member: what it was assigned and what it read.
type member struct {
	name     string
	mu       sync.Mutex
	assigned []int
	read     []record
}

func (m *member) Setup(s sarama.ConsumerGroupSession) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.assigned = []int{}
	for _, topicParts := range s.Claims() {
		for _, p := range topicParts {
			m.assigned = append(m.assigned, int(p))
		}
	}
	sort.Ints(m.assigned)
	return nil
}

func (m *member) Cleanup(sarama.ConsumerGroupSession) error {
	m.mu.Lock()
	m.assigned = nil
	m.mu.Unlock()
	return nil
}

func (m *member) ConsumeClaim(s sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		m.mu.Lock()
		m.read = append(m.read, record{msg.Partition, msg.Offset, string(msg.Value)})
		m.mu.Unlock()
		// Marked offsets are committed every CommitInterval and when the group is closed.
		s.MarkMessage(msg, "")
	}
	return nil
}

func (m *member) snapshot() ([]int, []record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]int(nil), m.assigned...), append([]record(nil), m.read...)
}

func waitFor(what string, deadline time.Time, ok func() bool) {
	for !ok() {
		if time.Now().After(deadline) {
			fail("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func group(a args, out map[string]interface{}, deadline time.Time) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	members := []*member{{name: "a"}, {name: "b"}}
	groups := []sarama.ConsumerGroup{}
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for _, m := range members {
		c := config(a, "compat-sarama-group-"+m.name)
		c.Consumer.Group.Session.Timeout = 10 * time.Second
		c.Consumer.Group.Heartbeat.Interval = 500 * time.Millisecond
		c.Consumer.Group.Rebalance.Timeout = 10 * time.Second
		c.Consumer.Group.Rebalance.Retry.Backoff = 200 * time.Millisecond
		c.Consumer.Offsets.CommitInterval = 200 * time.Millisecond
		g, err := sarama.NewConsumerGroup(a.bootstrap, a.group, c)
		if err != nil {
			fail("member %s: %v", m.name, err)
		}
		groups = append(groups, g)
		wg.Add(1)
		go func(m *member, g sarama.ConsumerGroup) {
			defer wg.Done()
			// Consume returns at every rebalance; call it again until told to stop.
			for ctx.Err() == nil {
				if err := g.Consume(ctx, []string{a.topic}, m); err != nil && ctx.Err() == nil {
					errs <- fmt.Errorf("member %s: %v", m.name, err)
					return
				}
			}
		}(m, g)
		go func(g sarama.ConsumerGroup) {
			for e := range g.Errors() {
				errs <- e
			}
		}(g)
	}
	check := func() {
		select {
		case e := <-errs:
			fail("%v", e)
		default:
		}
	}
	report := func() {
		ms := []map[string]interface{}{}
		for _, m := range members {
			assigned, read := m.snapshot()
			ms = append(ms, map[string]interface{}{"name": m.name, "assigned": assigned, "read": read})
		}
		out["members"] = ms
	}
	defer report()
	waitFor("both members to be assigned", deadline, func() bool {
		check()
		x, _ := members[0].snapshot()
		y, _ := members[1].snapshot()
		seen := map[int]bool{}
		for _, p := range append(append([]int{}, x...), y...) {
			seen[p] = true
		}
		return len(x) > 0 && len(y) > 0 && len(seen) == a.partitions && len(x)+len(y) == a.partitions
	})
	x, _ := members[0].snapshot()
	y, _ := members[1].snapshot()
	out["assignedBeforeProduce"] = [][]int{x, y}
	msgs := messagesFor(a.scenario, a.n, a.partitions)
	out["produced"] = produce(a, msgs, false, len(msgs))
	waitFor("both members to read everything", deadline, func() bool {
		check()
		total := 0
		for _, m := range members {
			_, r := m.snapshot()
			total += len(r)
		}
		return total >= len(msgs)
	})
	report()
	// Closing commits the marked offsets and leaves the group.
	cancel()
	for i, g := range groups {
		if err := g.Close(); err != nil {
			fail("member %s close: %v", members[i].name, err)
		}
	}
	wg.Wait()
}

func main() {
	a := parse()
	started := time.Now()
	deadline := started.Add(a.timeout)
	out := map[string]interface{}{"ok": false, "client": "sarama " + saramaVersion, "scenario": a.scenario, "topic": a.topic, "errors": []string{}}
	finish := func(code int) {
		out["elapsed_s"] = time.Since(started).Seconds()
		b, _ := json.Marshal(out)
		fmt.Println(string(b))
		os.Exit(code)
	}
	// A hung client must not outlive the suite.
	// (It prints a summary of its own: `out` may be in use by the main goroutine.)
	time.AfterFunc(a.timeout+10*time.Second, func() {
		b, _ := json.Marshal(map[string]interface{}{"ok": false, "client": "sarama " + saramaVersion, "scenario": a.scenario, "topic": a.topic,
			"errors": []string{fmt.Sprintf("hard timeout (%v)", a.timeout+10*time.Second)}})
		fmt.Println(string(b))
		os.Exit(2)
	})
	code := 0
	func() {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprint(r)
				if f, ok := r.(failure); ok {
					msg = f.msg
				}
				out["errors"] = append(out["errors"].([]string), msg)
				code = 1
				if strings.Contains(msg, "timed out") {
					code = 2
				}
			}
		}()
		switch a.scenario {
		case "metadata":
			metadata(a, out)
		case "produce-fetch":
			produceFetch(a, out, deadline, false)
		case "idempotent":
			produceFetch(a, out, deadline, true)
		case "group":
			group(a, out, deadline)
		case "transactions":
			out["errors"] = append(out["errors"].([]string), "sarama "+saramaVersion+" has no transactional producer (added in sarama 1.37)")
			code = 2
		default:
			fail("unknown scenario %s", a.scenario)
		}
	}()
	out["ok"] = code == 0
	finish(code)
}
