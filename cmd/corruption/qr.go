package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// The phones' address as a QR code: in the terminal, two rows of modules a line with half
// blocks, and in the laptop's page, as a PNG.

// qrQuiet is the margin of light modules around the code (the standard asks 4; phones read 2).
const qrQuiet = 2

// writeQR draws text's QR code on w. Light modules are the blocks, so that the code reads on
// a dark terminal; on a terminal (not a pipe or a file) it sets black on white itself, so that
// it reads on a light one too.
func writeQR(w io.Writer, text string) {
	q, err := qrcode.New(text, qrcode.Low)
	if err != nil {
		fmt.Fprintf(w, "(no QR code: %v)\n", err)
		return
	}
	q.DisableBorder = true
	fmt.Fprint(w, qrText(q.Bitmap(), isTerminal(w)))
}

// qrText renders a bitmap (true: a dark module) with its quiet zone, two rows a line.
func qrText(bm [][]bool, color bool) string {
	n := len(bm) + 2*qrQuiet
	dark := func(r, c int) bool {
		r, c = r-qrQuiet, c-qrQuiet
		return r >= 0 && c >= 0 && r < len(bm) && c < len(bm) && bm[r][c]
	}
	var b strings.Builder
	for r := 0; r < n; r += 2 {
		if color {
			b.WriteString("\x1b[97;40m") // white blocks on black
		}
		for c := 0; c < n; c++ {
			top, bottom := !dark(r, c), r+1 < n && !dark(r+1, c)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		if color {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// qrDataURL is text's QR code as a PNG data: address, for the page.
func qrDataURL(text string) string {
	png, err := qrcode.Encode(text, qrcode.Low, 256)
	if err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}

// isTerminal says whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
