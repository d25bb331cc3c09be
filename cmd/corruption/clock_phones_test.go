package main

import (
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	browserseat "corruption/seat"
)

// TestPhonesClock: a command that serves phones gives its tables the phones' timeout for
// automatic entries (a locked screen for a minute does not end them), unless --timeout says
// otherwise; without --phones the command's own.
func TestPhonesClock(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want time.Duration
	}{
		{"demo", []string{"demo"}, demoClock.timeout},
		{"demo", []string{"demo", "--phones"}, browserseat.PhoneClock.Timeout},
		{"demo", []string{"demo", "--phones", "--timeout", "30s"}, 30 * time.Second},
		{"host", []string{"host"}, browserseat.PhoneClock.Timeout},
	} {
		var got time.Duration
		cmd := &cli.Command{Name: tc.name, Flags: append(clockFlags(demoClock), &cli.BoolFlag{Name: "phones"}),
			Action: func(c *cli.Context) error {
				k, err := readClock(c)
				got = k.timeout
				return err
			}}
		app := &cli.App{Name: "corruption", Commands: []*cli.Command{cmd}}
		if err := app.Run(append([]string{"corruption"}, tc.args...)); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got != tc.want {
			t.Errorf("%v: timeout %v, want %v", tc.args, got, tc.want)
		}
	}
}
