package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"corruption/engine/cmdkit"
	"corruption/protocol"
	"corruption/ui"
)

// chatFileFor is where the chat of the log saved to logPath goes: beside it, LOG.chat.
func chatFileFor(logPath string) string { return logPath + ".chat" }

// saveChat saves the table's chat, as its node kept it (protocol.ReadChat's format), beside
// the log saved to --out, so that a player can show what was said after the node's data
// directory is gone. A table where nobody spoke has no chat: nothing is written, and the chat
// of an earlier table saved at that place is removed with the log it went with.
func saveChat(logPath string, store *protocol.Store, table string) error {
	dst := chatFileFor(logPath)
	src, err := os.Open(store.ChatPath(table))
	if errors.Is(err, fs.ErrNotExist) {
		return removeStaleChat(dst)
	}
	if err != nil {
		return err
	}
	defer src.Close()
	return saveCopy(dst, src)
}

// removeStaleChat removes the chat file at path, if it is one (it opens with the chat's magic
// line): what else is there is not ours to remove.
func removeStaleChat(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	head := make([]byte, len(protocol.ChatMagic))
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != protocol.ChatMagic {
		return nil
	}
	return os.Remove(path)
}

// auditChat checks a chat file against the table of the log at logPath (every message signed
// by the roster member it names, for that table, with a text its version accepts) and tells it,
// message by message: each speaker by name and seat (rep, the log's audit, knows the seats),
// names and texts escaped and isolated (ui.Isolate), each message with its number. A speaker
// that signed two different messages with one number is shown as what it is: both messages
// are printed, the later marked !!, and a last line says who said two things.
func auditChat(w io.Writer, logPath, chatPath string, rep *protocol.Report) error {
	lf, err := openLog(logPath)
	if err != nil {
		return err
	}
	g := readGenesis(lf)
	lf.Close()
	if g == nil {
		return fmt.Errorf("%s: no table's genesis to check the chat against", logPath)
	}
	cf, err := os.Open(chatPath)
	if err != nil {
		return fmt.Errorf("--chat: %v", err)
	}
	defer cf.Close()
	msgs, err := protocol.ReadChat(cf)
	if err != nil {
		return fmt.Errorf("%s: %v", chatPath, err)
	}
	for _, m := range msgs {
		if err := m.Verify(g); err != nil {
			return fmt.Errorf("%s: %v", chatPath, err)
		}
	}
	conflicts := protocol.MarkChatConflicts(msgs)
	fmt.Fprintf(w, "chat: %d %s, each signed by its speaker at this table (nothing said there binds anyone)\n",
		len(msgs), pluralWord(len(msgs), "message", "messages"))
	speaker := func(m *protocol.ChatMessage) string {
		for seat, member := range rep.Roster {
			if member == m.Member {
				return ui.ShownName("en", rep.Names, seat)
			}
		}
		return fmt.Sprintf("%s (player %d of the roster)", ui.Isolate(m.Name), m.Member)
	}
	said := map[[2]uint64]bool{}
	var twice []string
	for _, m := range msgs {
		mark := ""
		if m.Conflict {
			mark = "!! "
			if k := [2]uint64{uint64(m.Member), m.Counter}; !said[k] {
				said[k] = true
				twice = append(twice, fmt.Sprintf("%s, message %d", speaker(m), m.Counter))
			}
		}
		fmt.Fprintf(w, "  %s%s  %s #%d: %s\n", mark, m.Time.UTC().Format("2006-01-02 15:04:05 UTC"), speaker(m), m.Counter, ui.Isolate(m.Text))
	}
	if conflicts > 0 {
		fmt.Fprintf(w, "!! %d %s signed two different messages under one number (both are shown, the later marked !!; a node may have heard either first): %s\n",
			conflicts, pluralWord(conflicts, "time a player", "times players"), strings.Join(twice, "; "))
	}
	return nil
}

// pluralWord is one when n is 1, else many.
func pluralWord(n int, one, many string) string { return cmdkit.Plural(n, one, many) }
