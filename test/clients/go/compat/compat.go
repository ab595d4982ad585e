// Package compat is what the Go drivers of the compatibility suite share (the
// mirror of test/clients/compat_common.mjs and compat_common.py): the command
// line, the messages of each scenario, the deadline and the one JSON summary
// line. The scenarios and their reports are described in test/compat/README.md;
// the suite (test/compat/) judges them against the broker's own state.
//
//	DRIVER BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// It builds in module mode and in GOPATH mode (the old sarama driver), so it
// uses nothing newer than Go 1.19's standard library.
package compat

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

// Args is the driver's command line.
type Args struct {
	Bootstrap  []string
	Scenario   string
	Topic      string
	N          int
	Partitions int
	Group      string
	TxnID      string
	Timeout    time.Duration
}

// Out is the summary line, filled in by the scenario.
type Out map[string]interface{}

// Step runs one scenario; it fails by calling Fail (or Refuse).
type Step func(a Args, out Out, deadline time.Time)

type failure struct{ msg string }

type refusal struct{ msg string }

// Fail stops the scenario as failed (exit 1; exit 2 when msg says "timed out").
func Fail(format string, a ...interface{}) { panic(failure{fmt.Sprintf(format, a...)}) }

// Refuse stops a scenario the client cannot do (exit 2): the suite does not run it.
func Refuse(format string, a ...interface{}) { panic(refusal{fmt.Sprintf(format, a...)}) }

// Record is [partition, offset, value], as every driver reports a record it read.
type Record [3]interface{}

// Message i of a run: value "<tag>-000042", key "k42", partition i % partitions.
type Message struct {
	Key, Value string
	Partition  int32
}

func MessagesFor(tag string, n, partitions int) []Message {
	out := make([]Message, n)
	for i := range out {
		out[i] = Message{fmt.Sprintf("k%d", i), fmt.Sprintf("%s-%06d", tag, i), int32(i % partitions)}
	}
	return out
}

// WaitFor polls ok every 50 ms until it holds, and fails at the deadline.
func WaitFor(what string, deadline time.Time, ok func() bool) {
	for !ok() {
		if time.Now().After(deadline) {
			Fail("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Parse reads the command line: positional arguments first, options after (as the suite passes them).
func Parse(prog string) Args {
	fs := flag.NewFlagSet(prog, flag.ExitOnError)
	n := fs.Int("n", 200, "messages (per transaction for transactions)")
	partitions := fs.Int("partitions", 1, "partitions of TOPIC (the suite creates it)")
	group := fs.String("group", "", "consumer group (default TOPIC-group)")
	txnID := fs.String("txn-id", "", "transactional id (default TOPIC-txn)")
	timeout := fs.Float64("timeout", 40, "seconds for the whole run")
	if len(os.Args) < 4 {
		fmt.Fprintf(os.Stderr, "usage: %s BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]\n", prog)
		os.Exit(2)
	}
	if err := fs.Parse(os.Args[4:]); err != nil || *n <= 0 || *partitions <= 0 || *timeout <= 0 {
		os.Exit(2)
	}
	a := Args{strings.Split(os.Args[1], ","), os.Args[2], os.Args[3], *n, *partitions, *group, *txnID, time.Duration(*timeout * float64(time.Second))}
	if a.Group == "" {
		a.Group = a.Topic + "-group"
	}
	if a.TxnID == "" {
		a.TxnID = a.Topic + "-txn"
	}
	return a
}

// Run runs the scenario's step, prints the summary line and exits: 0 when it
// went through, 1 on a failure, 2 on a timeout, a refusal or an unknown
// scenario. At --timeout + 10 s it prints a summary and exits whatever the
// client is doing, so that a hung client cannot outlive the suite.
func Run(a Args, client string, steps map[string]Step) {
	started := time.Now()
	deadline := started.Add(a.Timeout)
	out := Out{"ok": false, "client": client, "scenario": a.Scenario, "topic": a.Topic, "errors": []string{}}
	time.AfterFunc(a.Timeout+10*time.Second, func() {
		// A summary of its own: `out` may be in use by the main goroutine.
		b, _ := json.Marshal(Out{"ok": false, "client": client, "scenario": a.Scenario, "topic": a.Topic,
			"errors": []string{fmt.Sprintf("hard timeout (%v)", a.Timeout+10*time.Second)}})
		fmt.Println(string(b))
		os.Exit(2)
	})
	code := 0
	func() {
		defer func() {
			if r := recover(); r != nil {
				msg, c := fmt.Sprint(r), 1
				switch f := r.(type) {
				case failure:
					msg = f.msg
				case refusal:
					msg, c = f.msg, 2
				}
				if strings.Contains(msg, "timed out") {
					c = 2
				}
				out["errors"] = append(out["errors"].([]string), msg)
				code = c
			}
		}()
		step, ok := steps[a.Scenario]
		if !ok {
			Refuse("unknown scenario %s", a.Scenario)
		}
		step(a, out, deadline)
	}()
	out["ok"] = code == 0
	out["elapsed_s"] = time.Since(started).Seconds()
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	os.Exit(code)
}
