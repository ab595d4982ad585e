// franz-go driver of the compatibility suite (test/compat/README.md): one
// scenario per run, one JSON summary line on stdout. A module build of
// test/clients/go (the version is go.mod's): go build -o BIN ./franz
//
//	franz_compat BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// franz-go negotiates versions with ApiVersions. Its producer is idempotent
// by default: produce/fetch turns that off (DisableIdempotentWrite), as the
// other drivers send plain acks=all there.
package main

import (
	"context"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"kafkaesque/test/clients/go/compat"
)

func franzVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/twmb/franz-go" {
				return d.Version
			}
		}
	}
	return "unknown"
}

func client(a compat.Args, name string, opts ...kgo.Opt) *kgo.Client {
	base := []kgo.Opt{
		kgo.SeedBrokers(a.Bootstrap...),
		kgo.ClientID("compat-franz-" + name),
		kgo.DialTimeout(10 * time.Second),
		kgo.RetryBackoffFn(func(int) time.Duration { return 100 * time.Millisecond }),
		kgo.FetchMaxWait(100 * time.Millisecond),
	}
	cl, err := kgo.NewClient(append(base, opts...)...)
	if err != nil {
		compat.Fail("client %s: %v", name, err)
	}
	return cl
}

func withDeadline(deadline time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(context.Background(), deadline)
}

func metadata(a compat.Args, out compat.Out, deadline time.Time) {
	cl := client(a, "metadata")
	defer cl.Close()
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	md, err := kadm.NewClient(cl).Metadata(ctx, a.Topic)
	if err != nil {
		compat.Fail("Metadata: %v", err)
	}
	ids := []int{}
	for _, b := range md.Brokers {
		ids = append(ids, int(b.NodeID))
	}
	sort.Ints(ids)
	t, ok := md.Topics[a.Topic]
	if !ok || t.Err != nil {
		compat.Fail("metadata for %s: %v", a.Topic, t.Err)
	}
	parts := []map[string]int{}
	for _, p := range t.Partitions.Sorted() {
		parts = append(parts, map[string]int{"id": int(p.Partition), "leader": int(p.Leader)})
	}
	out["brokers"], out["controller"], out["partitions"] = ids, md.Controller, parts
}

func records(a compat.Args, msgs []compat.Message) []*kgo.Record {
	rs := make([]*kgo.Record, len(msgs))
	for i, m := range msgs {
		rs[i] = &kgo.Record{Topic: a.Topic, Partition: m.Partition, Key: []byte(m.Key), Value: []byte(m.Value)}
	}
	return rs
}

func producerOpts(idempotent bool) []kgo.Opt {
	opts := []kgo.Opt{kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.ProducerLinger(5 * time.Millisecond)}
	if !idempotent {
		opts = append(opts, kgo.DisableIdempotentWrite())
	}
	return opts
}

// produce sends msgs in chunks of `chunk`, each chunk acknowledged before the next (several batches per partition).
func produce(cl *kgo.Client, a compat.Args, msgs []compat.Message, chunk int, deadline time.Time) int {
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	for i := 0; i < len(msgs); i += chunk {
		end := i + chunk
		if end > len(msgs) {
			end = len(msgs)
		}
		if err := cl.ProduceSync(ctx, records(a, msgs[i:end])...).FirstErr(); err != nil {
			compat.Fail("produce: %v", err)
		}
	}
	return len(msgs)
}

// readBack reads every partition from the start (no group) until done(read).
func readBack(a compat.Args, deadline time.Time, done func([]compat.Record) bool, opts ...kgo.Opt) []compat.Record {
	offsets := map[int32]kgo.Offset{}
	for p := 0; p < a.Partitions; p++ {
		offsets[int32(p)] = kgo.NewOffset().AtStart()
	}
	cl := client(a, "reader", append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{a.Topic: offsets}))...)
	defer cl.Close()
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	read := []compat.Record{}
	for !done(read) {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			compat.Fail("timed out during read-back (%d records so far)", len(read))
		}
		if errs := fs.Errors(); len(errs) > 0 {
			compat.Fail("fetch partition %d: %v", errs[0].Partition, errs[0].Err)
		}
		fs.EachRecord(func(r *kgo.Record) { read = append(read, compat.Record{r.Partition, r.Offset, string(r.Value)}) })
	}
	return read
}

func produceFetch(a compat.Args, out compat.Out, deadline time.Time, idempotent bool) {
	msgs := compat.MessagesFor(a.Scenario, a.N, a.Partitions)
	p := client(a, "producer", producerOpts(idempotent)...)
	out["produced"] = produce(p, a, msgs, 50, deadline)
	p.Close()
	out["read"] = readBack(a, deadline, func(r []compat.Record) bool { return len(r) >= len(msgs) })
}

// member is one consumer-group member: what it owns now and what it read.
type member struct {
	name     string
	mu       sync.Mutex
	assigned map[int32]bool
	read     []compat.Record
	err      error
}

func (m *member) snapshot() ([]int, []compat.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ps := []int{}
	for p := range m.assigned {
		ps = append(ps, int(p))
	}
	sort.Ints(ps)
	return ps, append([]compat.Record(nil), m.read...), m.err
}

// group runs two members; serverSide is KIP-848's protocol (consumer-group),
// served on the 4.x profiles.
func group(a compat.Args, out compat.Out, deadline time.Time, serverSide bool) {
	members := []*member{{name: "a", assigned: map[int32]bool{}}, {name: "b", assigned: map[int32]bool{}}}
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	clients := []*kgo.Client{}
	var wg sync.WaitGroup
	for _, m := range members {
		m := m
		// The default balancer is cooperative-sticky: partitions are added and revoked incrementally.
		update := func(add bool) func(context.Context, *kgo.Client, map[string][]int32) {
			return func(_ context.Context, _ *kgo.Client, ps map[string][]int32) {
				m.mu.Lock()
				defer m.mu.Unlock()
				for _, p := range ps[a.Topic] {
					if add {
						m.assigned[p] = true
					} else {
						delete(m.assigned, p)
					}
				}
			}
		}
		opts := []kgo.Opt{kgo.ConsumerGroup(a.Group), kgo.ConsumeTopics(a.Topic), kgo.DisableAutoCommit(),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.SessionTimeout(10 * time.Second), kgo.HeartbeatInterval(500 * time.Millisecond), kgo.RebalanceTimeout(10 * time.Second),
			kgo.OnPartitionsAssigned(update(true)), kgo.OnPartitionsRevoked(update(false)), kgo.OnPartitionsLost(update(false))}
		if serverSide {
			// ServerSideBalancer needs the range or sticky balancer named.
			opts = append(opts, kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer()))
		}
		cl := client(a, "group-"+m.name, opts...)
		clients = append(clients, cl)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				fs := cl.PollFetches(ctx)
				m.mu.Lock()
				fs.EachError(func(_ string, p int32, err error) {
					if ctx.Err() == nil && m.err == nil {
						m.err = err
					}
				})
				fs.EachRecord(func(r *kgo.Record) { m.read = append(m.read, compat.Record{r.Partition, r.Offset, string(r.Value)}) })
				m.mu.Unlock()
			}
		}()
	}
	check := func() {
		for _, m := range members {
			if _, _, err := m.snapshot(); err != nil {
				compat.Fail("member %s: %v", m.name, err)
			}
		}
	}
	report := func() {
		ms := []map[string]interface{}{}
		for _, m := range members {
			assigned, read, _ := m.snapshot()
			ms = append(ms, map[string]interface{}{"name": m.name, "assigned": assigned, "read": read})
		}
		out["members"] = ms
	}
	defer report()
	compat.WaitFor("both members to be assigned", deadline, func() bool {
		check()
		x, _, _ := members[0].snapshot()
		y, _, _ := members[1].snapshot()
		seen := map[int]bool{}
		for _, p := range append(append([]int{}, x...), y...) {
			seen[p] = true
		}
		return len(x) > 0 && len(y) > 0 && len(seen) == a.Partitions && len(x)+len(y) == a.Partitions
	})
	x, _, _ := members[0].snapshot()
	y, _, _ := members[1].snapshot()
	out["assignedBeforeProduce"] = [][]int{x, y}
	msgs := compat.MessagesFor(a.Scenario, a.N, a.Partitions)
	p := client(a, "producer", producerOpts(false)...)
	out["produced"] = produce(p, a, msgs, len(msgs), deadline)
	p.Close()
	compat.WaitFor("both members to read everything", deadline, func() bool {
		check()
		total := 0
		for _, m := range members {
			_, r, _ := m.snapshot()
			total += len(r)
		}
		return total >= len(msgs)
	})
	report()
	// Commit what each member polled (the suite checks the committed offsets on the broker); Close leaves the group.
	for i, cl := range clients {
		if err := cl.CommitUncommittedOffsets(ctx); err != nil {
			compat.Fail("member %s commit: %v", members[i].name, err)
		}
	}
	cancel()
	wg.Wait()
	for _, cl := range clients {
		cl.Close()
	}
}

// transactions: commit1 committed, abort aborted once its records are in the
// log (ProduceSync returns when they are acknowledged), commit2 committed;
// then a read_committed read-back until all of commit2 is read.
func transactions(a compat.Args, out compat.Out, deadline time.Time) {
	cl := client(a, "txn", append(producerOpts(true), kgo.TransactionalID(a.TxnID), kgo.TransactionTimeout(30*time.Second))...)
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	for _, step := range []struct {
		tag    string
		commit kgo.TransactionEndTry
	}{{"commit1", kgo.TryCommit}, {"abort", kgo.TryAbort}, {"commit2", kgo.TryCommit}} {
		if err := cl.BeginTransaction(); err != nil {
			compat.Fail("BeginTransaction: %v", err)
		}
		if err := cl.ProduceSync(ctx, records(a, compat.MessagesFor(step.tag, a.N, a.Partitions))...).FirstErr(); err != nil {
			compat.Fail("produce (%s): %v", step.tag, err)
		}
		if err := cl.EndTransaction(ctx, step.commit); err != nil {
			compat.Fail("EndTransaction (%s): %v", step.tag, err)
		}
	}
	cl.Close()
	out["produced"] = map[string]int{"committed": 2 * a.N, "aborted": a.N}
	want := map[string]bool{}
	for _, m := range compat.MessagesFor("commit2", a.N, a.Partitions) {
		want[m.Value] = true
	}
	out["read"] = readBack(a, deadline, func(r []compat.Record) bool {
		seen := 0
		for _, x := range r {
			if want[x[2].(string)] {
				seen++
			}
		}
		return seen >= len(want)
	}, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
}

// shareGroup: the suite has set the group to read from the earliest; the
// records are produced first, then two members of share group a.Group
// (kgo.ShareGroup, KIP-932) poll until every value was read. Records a poll
// returned are accepted by the next poll (franz-go's implicit mode); Close
// sends what is left and leaves the group.
func shareGroup(a compat.Args, out compat.Out, deadline time.Time) {
	msgs := compat.MessagesFor(a.Scenario, a.N, a.Partitions)
	p := client(a, "producer", producerOpts(false)...)
	out["produced"] = produce(p, a, msgs, len(msgs), deadline)
	p.Close()
	members := []*member{{name: "a", assigned: map[int32]bool{}}, {name: "b", assigned: map[int32]bool{}}}
	ctx, cancel := withDeadline(deadline)
	defer cancel()
	clients := []*kgo.Client{}
	var wg sync.WaitGroup
	for _, m := range members {
		m := m
		cl := client(a, "share-"+m.name, kgo.ShareGroup(a.Group), kgo.ConsumeTopics(a.Topic))
		clients = append(clients, cl)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				fs := cl.PollFetches(ctx)
				m.mu.Lock()
				fs.EachError(func(_ string, _ int32, err error) {
					if ctx.Err() == nil && m.err == nil {
						m.err = err
					}
				})
				fs.EachRecord(func(r *kgo.Record) { m.read = append(m.read, compat.Record{r.Partition, r.Offset, string(r.Value)}) })
				m.mu.Unlock()
			}
		}()
	}
	defer func() {
		ms := []map[string]interface{}{}
		for _, m := range members {
			_, read, _ := m.snapshot()
			ms = append(ms, map[string]interface{}{"name": m.name, "read": read})
		}
		out["members"] = ms
	}()
	compat.WaitFor("both members to read everything", deadline, func() bool {
		seen := map[string]bool{}
		for _, m := range members {
			_, r, err := m.snapshot()
			if err != nil {
				compat.Fail("member %s: %v", m.name, err)
			}
			for _, x := range r {
				seen[x[2].(string)] = true
			}
		}
		return len(seen) >= len(msgs)
	})
	// One more poll each accepts the last records; Close flushes and leaves.
	time.Sleep(500 * time.Millisecond)
	cancel()
	wg.Wait()
	for _, cl := range clients {
		flush, done := withDeadline(time.Now().Add(5 * time.Second))
		_ = cl.FlushAcks(flush)
		done()
		cl.Close()
	}
}

func main() {
	a := compat.Parse("franz_compat")
	compat.Run(a, "franz-go "+franzVersion(), map[string]compat.Step{
		"metadata":       metadata,
		"produce-fetch":  func(a compat.Args, out compat.Out, deadline time.Time) { produceFetch(a, out, deadline, false) },
		"idempotent":     func(a compat.Args, out compat.Out, deadline time.Time) { produceFetch(a, out, deadline, true) },
		"group":          func(a compat.Args, out compat.Out, deadline time.Time) { group(a, out, deadline, false) },
		"consumer-group": func(a compat.Args, out compat.Out, deadline time.Time) { group(a, out, deadline, true) },
		"transactions":   transactions,
		"share-group":    shareGroup,
	})
}
