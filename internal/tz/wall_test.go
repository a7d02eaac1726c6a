package tz

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestWall(t *testing.T) {
	tests := []struct {
		name    string
		zone    string
		wall    [5]int // month, day, hour, minute, second in 2026
		want    string // the instant in UTC, or "" for a refusal
		problem WallProblem
	}{
		{"ordinary", la, [5]int{10, 9, 8, 40, 0}, "2026-10-09T15:40:00Z", 0},
		{"spring gap", la, [5]int{3, 8, 2, 30, 0}, "", WallGap},
		{"just before the gap", la, [5]int{3, 8, 1, 59, 59}, "2026-03-08T09:59:59Z", 0},
		{"just after the gap", la, [5]int{3, 8, 3, 0, 0}, "2026-03-08T10:00:00Z", 0},
		{"autumn fold", la, [5]int{11, 1, 1, 30, 0}, "", WallAmbiguous},
		{"after the fold", la, [5]int{11, 1, 2, 0, 0}, "2026-11-01T10:00:00Z", 0},
		{"Berlin gap", "Europe/Berlin", [5]int{3, 29, 2, 15, 0}, "", WallGap},
		{"UTC never skips", "UTC", [5]int{3, 8, 2, 30, 0}, "2026-03-08T02:30:00Z", 0},
		{"Kathmandu", "Asia/Kathmandu", [5]int{10, 9, 8, 45, 0}, "2026-10-09T03:00:00Z", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := tt.wall
			got, err := mustZone(t, tt.zone).Wall(2026, time.Month(w[0]), w[1], w[2], w[3], w[4], 0)
			if tt.want != "" {
				if err != nil {
					t.Fatal(err)
				}
				if got.UTC().Format(time.RFC3339Nano) != tt.want {
					t.Errorf("got %s, want %s", got.UTC().Format(time.RFC3339Nano), tt.want)
				}
				return
			}
			var we *WallError
			if !errors.As(err, &we) || we.Problem != tt.problem {
				t.Fatalf("error %v, want problem %d", err, tt.problem)
			}
			if we.Zone != tt.zone {
				t.Errorf("error names zone %q", we.Zone)
			}
			wall := fmt.Sprintf("2026-%02d-%02d %02d:%02d:%02d", w[0], w[1], w[2], w[3], w[4])
			if !strings.Contains(err.Error(), wall) || !strings.Contains(err.Error(), tt.zone) {
				t.Errorf("message %q does not name %s in %s", err, wall, tt.zone)
			}
		})
	}
}

const la = "America/Los_Angeles"

// mustZone parses a zone name or stops the test.
func mustZone(t testing.TB, name string) Zone {
	t.Helper()
	z, err := Parse(name)
	if err != nil {
		t.Fatalf("Parse(%q): %v", name, err)
	}
	return z
}
