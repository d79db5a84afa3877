// anchor PID PROFILER_PATH CLSID CLIENT_DATA
// Attaches once with Microsoft.Diagnostics.NETCore.Client and prints the call's time in ms,
// the same figure `clrattach attach --json` reports as elapsed_ms.
using System.Diagnostics;
using System.Text;
using Microsoft.Diagnostics.NETCore.Client;

int pid = int.Parse(args[0]);
var clock = Stopwatch.StartNew();
var client = new DiagnosticsClient(pid);
// The client sends whole seconds in a field the runtime reads as milliseconds (see README).
client.AttachProfiler(TimeSpan.FromSeconds(10), Guid.Parse(args[2]), args[1],
                      Encoding.UTF8.GetBytes(args[3]));
Console.WriteLine(clock.Elapsed.TotalMilliseconds.ToString("F3"));
