// sarama driver of the compatibility suite (test/compat/README.md): one
// scenario per run, one JSON summary line on stdout.
//
//	sarama_compat BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// One source, two builds (test/compat/clients.ts runs both):
//
//   - IBM/sarama, a module build of test/clients/go (the version is go.mod's):
//     go build -o BIN ./sarama
//   - sarama 1.22, the old client: Debian's golang-github-shopify-sarama-dev
//     in GOPATH mode, offline, with github.com/IBM/sarama pointing at those
//     sources (the package has no import comment, so the path is free) and the
//     sarama122 tag, which leaves the transactions out (they came in 1.37):
//     GO111MODULE=off GOPATH=TMP:/usr/share/gocode go build -tags sarama122 -ldflags "-X main.saramaVersion=V" ./sarama
//
// Config.Version is sarama.MaxVersion: sarama does not negotiate versions, it
// sends what Config.Version implies, and its default (0.8.2 in 1.22) predates
// record batches, idempotence and consumer groups.
package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"kafkaesque/test/clients/go/compat"
)

// Set at build time from the Debian package's version; a module build reads its go.mod's.
var saramaVersion = "unknown"

func init() {
	if info, ok := debug.ReadBuildInfo(); ok && saramaVersion == "unknown" {
		for _, d := range info.Deps {
			if d.Path == "github.com/IBM/sarama" {
				saramaVersion = d.Version
			}
		}
	}
}

func config(a compat.Args, clientID string) *sarama.Config {
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

func metadata(a compat.Args, out compat.Out, _ time.Time) {
	admin, err := sarama.NewClusterAdmin(a.Bootstrap, config(a, "compat-sarama-metadata"))
	if err != nil {
		compat.Fail("cluster admin: %v", err)
	}
	defer admin.Close()
	brokers, controller, err := admin.DescribeCluster()
	if err != nil {
		compat.Fail("DescribeCluster: %v", err)
	}
	ids := []int{}
	for _, b := range brokers {
		ids = append(ids, int(b.ID()))
	}
	sort.Ints(ids)
	topics, err := admin.DescribeTopics([]string{a.Topic})
	if err != nil {
		compat.Fail("DescribeTopics: %v", err)
	}
	if len(topics) != 1 || topics[0].Err != sarama.ErrNoError {
		compat.Fail("metadata for %s: %v", a.Topic, topics)
	}
	parts := []map[string]int{}
	for _, p := range topics[0].Partitions {
		parts = append(parts, map[string]int{"id": int(p.ID), "leader": int(p.Leader)})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i]["id"] < parts[j]["id"] })
	out["brokers"], out["controller"], out["partitions"] = ids, controller, parts
}

// produce sends msgs in chunks of `chunk` with a SyncProducer (several batches per partition).
func produce(a compat.Args, msgs []compat.Message, idempotent bool, chunk int) int {
	c := config(a, "compat-sarama-producer")
	if idempotent {
		c.Producer.Idempotent = true
		c.Net.MaxOpenRequests = 1
		c.Producer.Retry.Max = 5
	}
	p, err := sarama.NewSyncProducer(a.Bootstrap, c)
	if err != nil {
		compat.Fail("producer: %v", err)
	}
	defer p.Close()
	for i := 0; i < len(msgs); i += chunk {
		batch := []*sarama.ProducerMessage{}
		for _, m := range msgs[i:min(i+chunk, len(msgs))] {
			batch = append(batch, &sarama.ProducerMessage{Topic: a.Topic, Partition: m.Partition, Key: sarama.StringEncoder(m.Key), Value: sarama.StringEncoder(m.Value)})
		}
		if err := p.SendMessages(batch); err != nil {
			compat.Fail("send: %v", err)
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

// readBack reads every partition from the oldest offset (no group) until done(read).
func readBack(a compat.Args, c *sarama.Config, deadline time.Time, done func([]compat.Record) bool) []compat.Record {
	consumer, err := sarama.NewConsumer(a.Bootstrap, c)
	if err != nil {
		compat.Fail("consumer: %v", err)
	}
	defer consumer.Close()
	got := make(chan compat.Record, 1024)
	errs := make(chan error, a.Partitions)
	for p := 0; p < a.Partitions; p++ {
		pc, err := consumer.ConsumePartition(a.Topic, int32(p), sarama.OffsetOldest)
		if err != nil {
			compat.Fail("ConsumePartition %d: %v", p, err)
		}
		defer pc.AsyncClose()
		go func() {
			for {
				select {
				case m, ok := <-pc.Messages():
					if !ok {
						return
					}
					got <- compat.Record{m.Partition, m.Offset, string(m.Value)}
				case e, ok := <-pc.Errors():
					if ok {
						errs <- e
					}
					return
				}
			}
		}()
	}
	read := []compat.Record{}
	for !done(read) {
		select {
		case r := <-got:
			read = append(read, r)
		case e := <-errs:
			compat.Fail("consume: %v", e)
		case <-time.After(time.Until(deadline)):
			compat.Fail("timed out during read-back (%d records so far)", len(read))
		}
	}
	return read
}

func produceFetch(a compat.Args, out compat.Out, deadline time.Time, idempotent bool) {
	msgs := compat.MessagesFor(a.Scenario, a.N, a.Partitions)
	out["produced"] = produce(a, msgs, idempotent, 50)
	out["read"] = readBack(a, config(a, "compat-sarama-reader"), deadline, func(r []compat.Record) bool { return len(r) >= len(msgs) })
}

// member is one consumer-group member: what it was assigned and what it read.
type member struct {
	name     string
	mu       sync.Mutex
	assigned []int
	read     []compat.Record
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
		m.read = append(m.read, compat.Record{msg.Partition, msg.Offset, string(msg.Value)})
		m.mu.Unlock()
		// Marked offsets are committed every CommitInterval and when the group is closed.
		s.MarkMessage(msg, "")
	}
	return nil
}

func (m *member) snapshot() ([]int, []compat.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]int(nil), m.assigned...), append([]compat.Record(nil), m.read...)
}

func group(a compat.Args, out compat.Out, deadline time.Time) {
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
		g, err := sarama.NewConsumerGroup(a.Bootstrap, a.Group, c)
		if err != nil {
			compat.Fail("member %s: %v", m.name, err)
		}
		groups = append(groups, g)
		wg.Add(1)
		go func(m *member, g sarama.ConsumerGroup) {
			defer wg.Done()
			// Consume returns at every rebalance; call it again until told to stop.
			for ctx.Err() == nil {
				if err := g.Consume(ctx, []string{a.Topic}, m); err != nil && ctx.Err() == nil {
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
			compat.Fail("%v", e)
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
	compat.WaitFor("both members to be assigned", deadline, func() bool {
		check()
		x, _ := members[0].snapshot()
		y, _ := members[1].snapshot()
		seen := map[int]bool{}
		for _, p := range append(append([]int{}, x...), y...) {
			seen[p] = true
		}
		return len(x) > 0 && len(y) > 0 && len(seen) == a.Partitions && len(x)+len(y) == a.Partitions
	})
	x, _ := members[0].snapshot()
	y, _ := members[1].snapshot()
	out["assignedBeforeProduce"] = [][]int{x, y}
	msgs := compat.MessagesFor(a.Scenario, a.N, a.Partitions)
	out["produced"] = produce(a, msgs, false, len(msgs))
	compat.WaitFor("both members to read everything", deadline, func() bool {
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
			compat.Fail("member %s close: %v", members[i].name, err)
		}
	}
	wg.Wait()
}

func main() {
	a := compat.Parse("sarama_compat")
	compat.Run(a, "sarama "+saramaVersion, map[string]compat.Step{
		"metadata":      metadata,
		"produce-fetch": func(a compat.Args, out compat.Out, deadline time.Time) { produceFetch(a, out, deadline, false) },
		"idempotent":    func(a compat.Args, out compat.Out, deadline time.Time) { produceFetch(a, out, deadline, true) },
		"group":         group,
		"transactions": func(a compat.Args, out compat.Out, deadline time.Time) {
			if !hasTransactions {
				compat.Refuse("sarama %s has no transactional producer (added in sarama 1.37)", saramaVersion)
			}
			transactions(a, out, deadline)
		},
	})
}
